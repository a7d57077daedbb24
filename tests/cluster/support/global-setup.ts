import { execFileSync } from 'node:child_process';
import { createLogger } from '@framedeck/logging';
import { migrateAll } from '../../../services/cli/src/commands/migrate.command.js';
import { loadCliConfig } from '../../../services/cli/src/config.js';
import { inheritedEnv, REPO_ROOT } from '../../support/config.js';
import { CLUSTER_ENV } from './cluster-env.js';

/**
 * Once before the cluster tests: the topology's components up (infra/local/cluster.sh reuses
 * the ones already running) and the cluster test databases and topics migrated.
 */
export default async function setup(): Promise<void> {
  execFileSync('bash', [`${REPO_ROOT}infra/local/cluster.sh`, 'up'], { stdio: ['ignore', 'inherit', 'inherit'] });
  await migrateAll(loadCliConfig(inheritedEnv(CLUSTER_ENV)), createLogger('cluster-test-setup', 'warn'));
}
