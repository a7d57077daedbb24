import { bootstrapTenant, createProjectWithKeys, type PlanId } from '@framedeck/accounts';
import { createPool, getTenant } from '@framedeck/postgres';
import type { CliConfig } from '../config.js';

const PLANS: readonly PlanId[] = ['free', 'pro', 'enterprise'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A mistake in the command line: printed with the usage text, exit code 2. */
export class UsageError extends Error {}

export function parsePlan(value: string | undefined): PlanId {
  const plan = (value ?? 'pro') as PlanId;
  if (!PLANS.includes(plan)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
  return plan;
}

/** `framedeck bootstrap`: its JSON shape is a contract other tools parse (design.md). */
export async function bootstrap(config: CliConfig, options: { plan: PlanId }) {
  const pool = createPool(config.postgres);
  try {
    const result = await bootstrapTenant(pool, { plan: options.plan });
    return {
      tenantId: result.tenantId,
      projectId: result.projectId,
      projectName: result.projectName,
      appOrigin: config.addresses.appOrigin,
      baseUrl: config.addresses.baseUrl,
      ingestUrl: config.addresses.ingestUrl,
      user: result.user,
      // Free plans get only ingest and full (2 active keys); the others get all four presets.
      keys: result.keys,
    };
  } finally {
    await pool.end();
  }
}

/** `framedeck project create`. */
export async function createProject(config: CliConfig, options: { tenantId: string; name: string }) {
  if (!UUID.test(options.tenantId)) throw new UsageError('--tenant must be a tenant UUID');
  const pool = createPool(config.postgres);
  try {
    if (!(await getTenant(pool, options.tenantId))) throw new UsageError(`no tenant ${options.tenantId}`);
    const result = await createProjectWithKeys(pool, options);
    return { projectId: result.projectId, keys: result.keys };
  } finally {
    await pool.end();
  }
}
