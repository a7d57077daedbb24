import { CONCURRENCY_RETRY_AFTER_SECONDS } from './clickhouse-diagnostic.js';
import { SqlQuotaExceeded } from './sandbox-errors.js';

/**
 * Admission control in front of ClickHouse: how many sandbox queries may run at once, per
 * tenant and in all, counted at one shared point (Redis) so that every API instance of a
 * deployment sees the same numbers — fairness between tenants, not per API process.
 *
 * Why both caps: the sandbox ClickHouse user runs at most `max_concurrent_queries_for_user`
 * (8, infra/clickhouse/users.xml) queries at once. With a per-tenant cap of 2 one tenant can
 * never hold more than a quarter of the engine whatever number of projects or API instances it
 * uses, and the global cap (6, below the engine's 8) means the engine's own "too many
 * simultaneous queries" is never what a tenant meets: a flood is refused here with 429 and
 * Retry-After while another tenant's query still gets a slot.
 *
 * Each slot is a lease that expires on its own (the query's deadline plus a margin), so an API
 * instance that dies mid-query cannot leak slots.
 */
export const MAX_CONCURRENT_QUERIES_PER_TENANT = 2;
export const MAX_CONCURRENT_QUERIES_GLOBAL = 6;

export type AdmissionLimits = { perTenant: number; global: number };
export const DEFAULT_ADMISSION_LIMITS: AdmissionLimits = {
  perTenant: MAX_CONCURRENT_QUERIES_PER_TENANT,
  global: MAX_CONCURRENT_QUERIES_GLOBAL,
};

/** A granted slot; release it once the query is over (safe to call twice). */
export type AdmissionSlot = { release: () => Promise<void> };

export interface QueryAdmission {
  /** A slot for one query of `tenantId`, or SqlQuotaExceeded (429) when a cap is reached. */
  acquire(tenantId: string, queryId: string, leaseMs: number): Promise<AdmissionSlot>;
}

function refused(which: 'tenant' | 'global', limits: AdmissionLimits): SqlQuotaExceeded {
  return which === 'tenant'
    ? new SqlQuotaExceeded(
        `At most ${limits.perTenant} SQL queries of a tenant run at once; retry when one has finished.`,
        CONCURRENCY_RETRY_AFTER_SECONDS,
      )
    : new SqlQuotaExceeded(
        'Too many SQL queries are running right now; retry in a few seconds.',
        CONCURRENCY_RETRY_AFTER_SECONDS,
      );
}

/** Counts in this process only: tests, single-instance set-ups, and the fallback while Redis is down. */
export class LocalAdmission implements QueryAdmission {
  private readonly running = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: AdmissionLimits = DEFAULT_ADMISSION_LIMITS) {}

  acquire(tenantId: string): Promise<AdmissionSlot> {
    const active = this.running.get(tenantId) ?? 0;
    if (active >= this.limits.perTenant) return Promise.reject(refused('tenant', this.limits));
    if (this.total >= this.limits.global) return Promise.reject(refused('global', this.limits));
    this.running.set(tenantId, active + 1);
    this.total += 1;
    let released = false;
    return Promise.resolve({
      release: () => {
        if (released) return Promise.resolve();
        released = true;
        this.total -= 1;
        const left = (this.running.get(tenantId) ?? 1) - 1;
        if (left > 0) this.running.set(tenantId, left);
        else this.running.delete(tenantId);
        return Promise.resolve();
      },
    });
  }
}

/** The few Redis commands admission needs (ioredis' `eval` and `zrem`). */
export type AdmissionRedis = {
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  zrem(key: string, ...members: string[]): Promise<unknown>;
};

/**
 * One atomic step: drop expired leases, check both caps, take a slot in both sets.
 * Time is Redis' own clock, so API instances with skewed clocks agree on expiry.
 * Returns 0 (granted), 1 (tenant cap), 2 (global cap).
 */
const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 2 end
redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
redis.call('ZADD', KEYS[2], now + lease, ARGV[1])
redis.call('PEXPIRE', KEYS[1], lease)
redis.call('PEXPIRE', KEYS[2], lease)
return 0`;

export type RedisAdmissionOptions = {
  redis: AdmissionRedis;
  /** Namespace of the slot sets (under the client's own key prefix). Default "sqlslots:". */
  keyPrefix?: string;
  limits?: AdmissionLimits;
  /** Told when Redis fails and this process falls back to counting on its own. */
  onFallback?: (error: unknown) => void;
};

/**
 * Slots in two Redis sorted sets (one per tenant, one global), member = query id, score = the
 * lease's expiry. If Redis is unreachable, admission falls back to this process's own counts
 * (the same caps per instance): queries keep running, fairness degrades to per instance.
 */
export class RedisAdmission implements QueryAdmission {
  private readonly prefix: string;
  private readonly limits: AdmissionLimits;
  private readonly fallback: LocalAdmission;

  constructor(private readonly options: RedisAdmissionOptions) {
    this.prefix = options.keyPrefix ?? 'sqlslots:';
    this.limits = options.limits ?? DEFAULT_ADMISSION_LIMITS;
    this.fallback = new LocalAdmission(this.limits);
  }

  async acquire(tenantId: string, queryId: string, leaseMs: number): Promise<AdmissionSlot> {
    const tenantKey = `${this.prefix}tenant:${tenantId}`;
    const globalKey = `${this.prefix}global`;
    let outcome: unknown;
    try {
      outcome = await this.options.redis.eval(
        ACQUIRE_SCRIPT,
        2,
        tenantKey,
        globalKey,
        queryId,
        Math.ceil(leaseMs),
        this.limits.perTenant,
        this.limits.global,
      );
    } catch (error) {
      this.options.onFallback?.(error);
      return this.fallback.acquire(tenantId);
    }
    if (outcome === 1) throw refused('tenant', this.limits);
    if (outcome === 2) throw refused('global', this.limits);
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        // A failed release is not retried: the lease expires on its own.
        await Promise.all([
          this.options.redis.zrem(tenantKey, queryId),
          this.options.redis.zrem(globalKey, queryId),
        ]).catch((error: unknown) => this.options.onFallback?.(error));
      },
    };
  }
}
