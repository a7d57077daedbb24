import { loadCliConfig } from '../../services/cli/src/config.js';
import { migrateAll } from '../../services/cli/src/commands/migrate.command.js';
import { createLogger } from '@framedeck/logging';
import { RAW_EVENT_TABLES } from '@framedeck/analytics';
import { createClickHouseWriter, identifier, sql, type ClickHouseWriter } from '@framedeck/clickhouse';
import type { ClickHouseConfig } from '@framedeck/config';
import { adoptTestEnv, serviceEnv } from './config.js';

/**
 * Runs once before the integration tests: the real stack must be up (npm test starts it via
 * infra/local/up.sh), and the test databases and topics are migrated.
 */
export default async function setup(): Promise<void> {
  adoptTestEnv();
  const config = loadCliConfig(serviceEnv());
  try {
    await migrateAll(config, createLogger('test-setup', 'warn'));
    await holdRetentionTtl(config.clickhouse);
  } catch (error) {
    throw new Error(
      `Integration tests need the local stack (Postgres, Redis, ClickHouse, Kafka). ` +
        `Run them with \`npm test\`, or start the stack with \`npm run stack:up\` first.\n` +
        `Cause: ${(error as Error).message}`,
    );
  }
}

/**
 * Test fixtures are dated at a fixed day (tests/analytics/event-fixtures.ts NOW), months before
 * the wall clock: on a modern server the events TTL (clickhouse/009) would expire them, in
 * background merges and in every mutation (erasure) that rewrites their part. The test
 * database's raw tables (events, funnel_steps) have no TTL; retention tests drop partitions through the retention
 * worker with an explicit clock instead.
 */
export async function holdRetentionTtl(config: ClickHouseConfig): Promise<void> {
  const writer: ClickHouseWriter = createClickHouseWriter(config);
  try {
    if ((await writer.engine()).generation !== 'modern') return;
    for (const name of RAW_EVENT_TABLES) {
      // Only while the table still has its TTL: REMOVE TTL on a table without one is an error.
      const [table] = await writer.rows<{ ttl: number }>(
        sql`SELECT position(create_table_query, ' TTL ') > 0 AS ttl FROM system.tables
             WHERE database = currentDatabase() AND name = ${name}`,
      );
      if (Number(table?.ttl ?? 0) > 0) await writer.command(sql`ALTER TABLE ${identifier(name)} REMOVE TTL`);
    }
  } finally {
    await writer.close();
  }
}
