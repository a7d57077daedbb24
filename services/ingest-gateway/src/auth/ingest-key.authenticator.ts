import { TtlCache, type ApiKeyLookup } from '@framedeck/accounts';
import { hasScope } from '@framedeck/auth';
import { DEFAULT_RETENTION_DAYS } from '@framedeck/proto';
import { getProjectRetentionDays, listPlans, type Plan, type Queryable } from '@framedeck/postgres';
import { IngestError } from '../http/ingest-error.js';

/** Who sent a batch, and the limits of their plan. */
export type IngestPrincipal = {
  keyId: string;
  projectId: string;
  tenantId: string;
  plan: Pick<Plan, 'ingestBatchesPerSecond' | 'monthlyEventBudget'>;
  /** How many days the project keeps raw events (its own setting, else its plan's): stamped on every row. */
  retentionDays: number;
  /** The key holds events:synthetic (a CI key): its batches are automated runs (see BatchEnvelope.synthetic). */
  synthetic: boolean;
};

export type IngestKeyAuthenticator = (rawKey: string) => Promise<IngestPrincipal>;

/** 403 for a key that is unknown or deactivated (counted per client address: InvalidKeyLimiter). */
export class InvalidKeyError extends IngestError {
  constructor() {
    super(403, 'Invalid or deactivated API key.');
  }
}

/**
 * Resolves an X-API-Key to its project, tenant and plan, or refuses it (403), through the key
 * lookup the API shares (cached by hash; its TTL bounds how long a deactivated key keeps
 * working). Plans and projects' retention change rarely and are cached for `planTtlMs` (a
 * changed retention applies to batches received after that).
 * A database failure is a 503 (retryable), never a 403 that would tell an SDK to drop data.
 */
export function createIngestKeyAuthenticator(
  keys: ApiKeyLookup,
  db: Queryable,
  options: { planTtlMs?: number } = {},
): IngestKeyAuthenticator {
  const plans = new TtlCache<Map<string, Plan>>({ maxEntries: 1, ttlMs: () => options.planTtlMs ?? 60_000 });
  const planOf = async (planId: string) =>
    (await plans.get('all', async () => new Map((await listPlans(db)).map((p) => [p.id, p])))).get(planId);
  const retention = new TtlCache<number | undefined>({ maxEntries: 10_000, ttlMs: () => options.planTtlMs ?? 60_000 });
  const retentionOf = (projectId: string) => retention.get(projectId, () => getProjectRetentionDays(db, projectId));

  return async (rawKey) => {
    let key;
    let plan;
    let retentionDays;
    try {
      key = await keys.find(rawKey);
      plan = key && (await planOf(key.planId));
      retentionDays = key && (await retentionOf(key.projectId));
    } catch {
      throw new IngestError(503, 'Key verification is temporarily unavailable; retry later.', { 'retry-after': '2' });
    }
    if (!key) throw new InvalidKeyError();
    if (!hasScope(key.scopes, 'events:write')) throw new IngestError(403, 'This API key lacks the events:write scope.');
    if (!plan) throw new Error(`tenant ${key.tenantId} has unknown plan ${key.planId}`);
    return {
      keyId: key.keyId,
      projectId: key.projectId,
      tenantId: key.tenantId,
      plan: { ingestBatchesPerSecond: plan.ingestBatchesPerSecond, monthlyEventBudget: plan.monthlyEventBudget },
      retentionDays: retentionDays ?? DEFAULT_RETENTION_DAYS,
      synthetic: hasScope(key.scopes, 'events:synthetic'),
    };
  };
}
