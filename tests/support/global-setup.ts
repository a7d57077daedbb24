import { loadCliConfig } from '../../services/cli/src/config.js';
import { migrateAll } from '../../services/cli/src/commands/migrate.command.js';
import { createLogger } from '@framedeck/logging';
import { adoptTestEnv, serviceEnv } from './test-env.js';

/**
 * Runs once before the integration tests: the real stack must be up (npm test starts it via
 * infra/local/up.sh), and the test databases and topics are migrated.
 */
export default async function setup(): Promise<void> {
  adoptTestEnv();
  const config = loadCliConfig(serviceEnv());
  try {
    await migrateAll(config, createLogger('test-setup', 'warn'));
  } catch (error) {
    throw new Error(
      `Integration tests need the local stack (Postgres, Redis, ClickHouse, Kafka). ` +
        `Run them with \`npm test\`, or start the stack with \`npm run stack:up\` first.\n` +
        `Cause: ${(error as Error).message}`,
    );
  }
}
