import { issueApiKey, KEY_PRESETS, type KeyPreset } from '@framedeck/auth';
import {
  countActiveKeys,
  getPlanOfTenant,
  inTransaction,
  insertApiKey,
  type ApiKeyListing,
  type Pool,
} from '@framedeck/postgres';

/** Thrown when a plan limit forbids the operation (maps to 403, error_category authorization). */
export class PlanLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanLimitError';
  }
}

export type CreatedApiKey = { key: ApiKeyListing; rawKey: string };

/**
 * Creates a key with a preset's scopes, enforcing the plan's active-key limit.
 * The project row is locked for the transaction, so two concurrent creations cannot both
 * slip under the limit.
 */
export async function createApiKey(
  pool: Pool,
  input: { projectId: string; preset: KeyPreset; name?: string },
): Promise<CreatedApiKey> {
  return inTransaction(pool, async (tx) => {
    const { rows } = await tx.query<{ tenantId: string }>(
      `SELECT tenant_id AS "tenantId" FROM projects WHERE id = $1 FOR UPDATE`,
      [input.projectId],
    );
    const project = rows[0];
    if (!project) throw new Error(`project ${input.projectId} does not exist`);
    const plan = await getPlanOfTenant(tx, project.tenantId);
    if (plan?.maxActiveKeysPerProject != null) {
      const active = await countActiveKeys(tx, input.projectId);
      if (active >= plan.maxActiveKeysPerProject) {
        throw new PlanLimitError(
          `The ${plan.name} plan allows ${plan.maxActiveKeysPerProject} active API keys per project; ` +
            'deactivate an unused key before creating a new one.',
        );
      }
    }
    const issued = issueApiKey();
    const key = await insertApiKey(tx, {
      projectId: input.projectId,
      name: input.name ?? input.preset,
      preset: input.preset,
      scopes: KEY_PRESETS[input.preset],
      keyHash: issued.hash,
      displayPrefix: issued.displayPrefix,
    });
    return { key, rawKey: issued.raw };
  });
}
