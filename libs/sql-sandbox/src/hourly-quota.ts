import { SqlQuotaExceeded } from './sandbox-errors.js';

/**
 * A project's hourly budget of sandbox queries, counted at one shared point (Redis) for every
 * API instance and every ClickHouse node.
 *
 * Why here as well as in ClickHouse: the sandbox quota of infra/clickhouse/users.xml is kept by
 * each server for itself. On one server that is the project's budget; on a cluster, behind a
 * balancer over N nodes, a project could spend it N times (docs/deployment.md). Counted here,
 * the queries, failed queries and execution time of an hour stay within the same limits however
 * many nodes serve them; ClickHouse's quota stays as the last wall on each node, and the rows a
 * query reads or returns (which 18.16 reports to no client) are still counted there only —
 * bounded, through execution time, by what a query can read in its seconds.
 *
 * Windows are clock hours (UTC) of the API instance's clock. A query is counted when it starts,
 * its failure and duration when it ends; up to the concurrent queries a tenant may run
 * (query-admission.ts) can start past the execution-time limit before their time is known.
 */
export type HourlyLimits = { queries: number; errors: number; executionSeconds: number };

/** users.xml's `sandbox` quota per hour (a unit test holds the two equal). */
export const SANDBOX_HOURLY_LIMITS: HourlyLimits = { queries: 2_000, errors: 500, executionSeconds: 3_600 };

/** What a finished query spent. */
export type QuerySpend = { failed: boolean; seconds: number };

export interface HourlyQuota {
  /** Counts one query of `projectId`, or throws SqlQuotaExceeded (429) when the hour's budget is spent. */
  admit(projectId: string): Promise<void>;
  /** Adds a finished query's failure and execution time to its project's hour. */
  record(projectId: string, spend: QuerySpend): Promise<void>;
}

/** The few Redis commands the quota needs (ioredis' `eval`). */
export type QuotaRedis = { eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown> };

/**
 * One atomic step: refuse when a counter of the hour reached its limit, else count the query.
 * Returns 0 (admitted), 1 (queries), 2 (errors), 3 (execution time).
 */
const ADMIT_SCRIPT = `
local v = redis.call('HMGET', KEYS[1], 'queries', 'errors', 'ms')
if tonumber(v[1] or '0') >= tonumber(ARGV[1]) then return 1 end
if tonumber(v[2] or '0') >= tonumber(ARGV[2]) then return 2 end
if tonumber(v[3] or '0') >= tonumber(ARGV[3]) then return 3 end
redis.call('HINCRBY', KEYS[1], 'queries', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 0`;

const RECORD_SCRIPT = `
redis.call('HINCRBY', KEYS[1], 'errors', ARGV[1])
redis.call('HINCRBY', KEYS[1], 'ms', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 0`;

const HOUR_MS = 3_600_000;

const SPENT: Record<1 | 2 | 3, (limits: HourlyLimits) => string> = {
  1: (l) => `This project ran its ${l.queries} SQL queries of this hour; try again later.`,
  2: (l) => `This project had ${l.errors} failed SQL queries this hour; try again later.`,
  3: (l) => `This project used its ${l.executionSeconds} s of SQL execution time this hour; try again later.`,
};

export type RedisHourlyQuotaOptions = {
  redis: QuotaRedis;
  /** Namespace of the counters (under the client's own key prefix). Default "sqlquota:". */
  keyPrefix?: string;
  limits?: HourlyLimits;
  /** The clock (tests). */
  now?: () => number;
  /** Told when Redis fails: the query then runs, within ClickHouse's own per-node quota. */
  onFallback?: (error: unknown) => void;
};

/** Counters in one Redis hash per project and hour (queries, errors, milliseconds), expiring after the hour. */
export class RedisHourlyQuota implements HourlyQuota {
  private readonly prefix: string;
  private readonly limits: HourlyLimits;
  private readonly now: () => number;

  constructor(private readonly options: RedisHourlyQuotaOptions) {
    this.prefix = options.keyPrefix ?? 'sqlquota:';
    this.limits = options.limits ?? SANDBOX_HOURLY_LIMITS;
    this.now = options.now ?? Date.now;
  }

  async admit(projectId: string): Promise<void> {
    const now = this.now();
    const hour = Math.floor(now / HOUR_MS);
    let outcome: unknown;
    try {
      outcome = await this.options.redis.eval(
        ADMIT_SCRIPT,
        1,
        this.key(projectId, hour),
        this.limits.queries,
        this.limits.errors,
        this.limits.executionSeconds * 1000,
        2 * HOUR_MS,
      );
    } catch (error) {
      this.options.onFallback?.(error);
      return;
    }
    if (outcome === 1 || outcome === 2 || outcome === 3) {
      const secondsLeft = Math.max(1, Math.ceil(((hour + 1) * HOUR_MS - now) / 1000));
      throw new SqlQuotaExceeded(SPENT[outcome](this.limits), secondsLeft);
    }
  }

  async record(projectId: string, spend: QuerySpend): Promise<void> {
    // Counted in the hour the query ends in: a query spanning the hour's end costs the next one.
    const hour = Math.floor(this.now() / HOUR_MS);
    try {
      await this.options.redis.eval(
        RECORD_SCRIPT,
        1,
        this.key(projectId, hour),
        spend.failed ? 1 : 0,
        Math.round(spend.seconds * 1000),
        2 * HOUR_MS,
      );
    } catch (error) {
      this.options.onFallback?.(error);
    }
  }

  private key(projectId: string, hour: number): string {
    return `${this.prefix}${projectId}:${hour}`;
  }
}
