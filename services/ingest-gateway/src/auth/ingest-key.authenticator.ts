import { hashApiKey, hasScope, looksLikeApiKey } from '@framedeck/auth';
import { findActiveKeyByHash, listPlans, type Plan, type Queryable } from '@framedeck/postgres';
import { IngestError } from '../http/ingest-error.js';
import { TtlCache } from './ttl-cache.js';

/** Who sent a batch, and the limits of their plan. */
export type IngestPrincipal = {
  keyId: string;
  projectId: string;
  tenantId: string;
  plan: Pick<Plan, 'ingestBatchesPerSecond' | 'monthlyEventBudget'>;
};

export type IngestKeyAuthenticator = (rawKey: string) => Promise<IngestPrincipal>;

/**
 * Resolves an X-API-Key to its project, tenant and plan, or refuses it (403).
 * Lookups are by SHA-256 hash (never the raw key, which is neither cached nor logged) and are
 * cached briefly: `ttlMs` bounds how long a deactivated key keeps working; unknown keys are
 * cached for the shorter `negativeTtlMs`, so a just-created key works almost at once while a
 * flood of bad keys still costs one query per key per interval.
 * A database failure is a 503 (retryable), never a 403 that would tell an SDK to drop data.
 */
export function createIngestKeyAuthenticator(
  db: Queryable,
  options: { ttlMs: number; negativeTtlMs: number; maxEntries?: number; planTtlMs?: number },
): IngestKeyAuthenticator {
  type Entry = IngestPrincipal | 'unknown' | 'no-scope';
  const keys = new TtlCache<Entry>({
    maxEntries: options.maxEntries ?? 10_000,
    ttlMs: (entry) => (entry === 'unknown' ? options.negativeTtlMs : options.ttlMs),
  });
  const plans = new TtlCache<Map<string, Plan>>({ maxEntries: 1, ttlMs: () => options.planTtlMs ?? 60_000 });

  async function load(keyHash: Buffer): Promise<Entry> {
    const principal = await findActiveKeyByHash(db, keyHash);
    if (!principal) return 'unknown';
    if (!hasScope(principal.scopes, 'events:write')) return 'no-scope';
    const plan = (await plans.get('all', async () => new Map((await listPlans(db)).map((p) => [p.id, p])))).get(
      principal.planId,
    );
    if (!plan) throw new Error(`tenant ${principal.tenantId} has unknown plan ${principal.planId}`);
    return {
      keyId: principal.keyId,
      projectId: principal.projectId,
      tenantId: principal.tenantId,
      plan: { ingestBatchesPerSecond: plan.ingestBatchesPerSecond, monthlyEventBudget: plan.monthlyEventBudget },
    };
  }

  return async (rawKey) => {
    if (!looksLikeApiKey(rawKey)) throw new IngestError(403, 'Invalid API key.');
    let entry: Entry;
    try {
      const keyHash = hashApiKey(rawKey);
      entry = await keys.get(keyHash.toString('base64'), () => load(keyHash));
    } catch {
      throw new IngestError(503, 'Key verification is temporarily unavailable; retry later.', { 'retry-after': '2' });
    }
    if (entry === 'unknown') throw new IngestError(403, 'Invalid or deactivated API key.');
    if (entry === 'no-scope') throw new IngestError(403, 'This API key lacks the events:write scope.');
    return entry;
  };
}
