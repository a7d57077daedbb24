import type { Redis } from '@framedeck/redis';
import type { Logger } from '@framedeck/logging';
import { IngestError } from '../http/ingest-error.js';
import type { IngestPrincipal } from '../auth/ingest-key.authenticator.js';

/**
 * Per-tenant ingest limits, counted in Redis so every gateway instance shares them:
 *  - batches per second (plans.ingest_batches_per_second): a one-second window, checked
 *    before the body is read so a flood costs no inflate/decode;
 *  - events per calendar month, UTC (plans.monthly_event_budget): checked once the batch is
 *    decoded and its events counted; a batch that would cross the budget is refused whole.
 * Both refusals are 429 with Retry-After.
 *
 * NOTE: when Redis is unreachable the limiter FAILS OPEN: the batch is accepted uncounted and
 * a warning is logged (at most every 10 s). Telemetry lost because a counter was unavailable
 * cannot be recovered; a few minutes of uncounted traffic can be tolerated.
 */
export type IngestLimiter = {
  checkRate(principal: IngestPrincipal, now: Date): Promise<void>;
  consumeBudget(principal: IngestPrincipal, events: number, now: Date): Promise<void>;
};

// KEYS[1] counter of one second. Returns the count including this batch.
const COUNT_BATCH = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], 2) end
return n`;

// KEYS[1] counter, ARGV[1] budget, ARGV[2] events, ARGV[3] ttl seconds.
// Returns -1 when the batch does not fit, else the new total.
const CONSUME_BUDGET = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local events = tonumber(ARGV[2])
if used + events > tonumber(ARGV[1]) then return -1 end
local total = redis.call('INCRBY', KEYS[1], events)
if total == events then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return total`;

/** Logs "limits not enforced" at most every 10 s while Redis is unreachable. */
function failOpenWarning(logger: Logger): (error: unknown, what: string) => void {
  let lastWarning = 0;
  return (error, what) => {
    const now = Date.now();
    if (now - lastWarning > 10_000) {
      lastWarning = now;
      logger.warn({ err: (error as Error).message, limit: what }, 'redis unavailable: ingest limits not enforced');
    }
  };
}

export function createIngestLimiter(redis: Redis, logger: Logger): IngestLimiter {
  const failOpen = failOpenWarning(logger);

  return {
    async checkRate(principal, now) {
      const second = Math.floor(now.getTime() / 1000);
      const key = `ingest:rate:${principal.tenantId}:${second}`;
      let count: number;
      try {
        count = (await redis.eval(COUNT_BATCH, 1, key)) as number;
      } catch (error) {
        return failOpen(error, 'rate');
      }
      if (count > principal.plan.ingestBatchesPerSecond) {
        throw new IngestError(429, 'Ingest rate limit exceeded for this account.', { 'retry-after': '1' });
      }
    },

    async consumeBudget(principal, events, now) {
      const budget = principal.plan.monthlyEventBudget;
      if (budget === null || events === 0) return;
      const month = `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
      const retryAfter = secondsUntilNextMonth(now);
      let total: number;
      try {
        total = (await redis.eval(
          CONSUME_BUDGET,
          1,
          `ingest:events:${principal.tenantId}:${month}`,
          budget,
          events,
          retryAfter + 86_400,
        )) as number;
      } catch (error) {
        return failOpen(error, 'budget');
      }
      if (total < 0) {
        throw new IngestError(429, 'Monthly event budget of this account is exhausted.', {
          'retry-after': String(retryAfter),
        });
      }
    },
  };
}

export function secondsUntilNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/**
 * Invalid ingest keys per client address (the TCP peer): after `perWindow` unknown or
 * deactivated keys from one address within a fixed window of `windowSeconds`, that address
 * is answered 429 with Retry-After until the window ends, before any key lookup, so guessing
 * keys or a misconfigured sender cannot turn into one Postgres query per request.
 * A key that exists but lacks events:write is not counted (it is a configuration mistake,
 * answered from the key cache).
 *
 * The count is shared through Redis; the verdict is kept in this process, so a request from an
 * address that is not blocked costs no Redis call. Across gateway instances an address gets at
 * most one more failure per instance before each of them blocks it too. Redis unreachable:
 * fails open, like the other ingest limits.
 */
export type InvalidKeyLimiter = {
  /** Throws 429 when `address` is blocked. No I/O. */
  check(address: string, now: Date): void;
  /** Counts an unknown or deactivated key sent from `address`. */
  recordInvalidKey(address: string, now: Date): Promise<void>;
};

// KEYS[1] counter of one window, ARGV[1] ttl seconds. Returns the count including this failure.
const COUNT_FAILURE = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`;

const MAX_BLOCKED_ADDRESSES = 10_000;

export function createInvalidKeyLimiter(
  redis: Redis,
  logger: Logger,
  options: { perWindow: number; windowSeconds: number },
): InvalidKeyLimiter {
  const failOpen = failOpenWarning(logger);
  const windowMs = options.windowSeconds * 1000;
  /** Blocked address → end of its window (ms). */
  const blocked = new Map<string, number>();

  return {
    check(address, now) {
      const until = blocked.get(address);
      if (until === undefined) return;
      const left = until - now.getTime();
      if (left <= 0) return void blocked.delete(address);
      throw new IngestError(429, 'Too many invalid API keys from this address; retry later.', {
        'retry-after': String(Math.ceil(left / 1000)),
      });
    },

    async recordInvalidKey(address, now) {
      const window = Math.floor(now.getTime() / windowMs);
      let count: number;
      try {
        count = (await redis.eval(
          COUNT_FAILURE,
          1,
          `ingest:invalid-keys:${address}:${window}`,
          options.windowSeconds + 1,
        )) as number;
      } catch (error) {
        return failOpen(error, 'invalid keys');
      }
      if (count < options.perWindow) return;
      if (blocked.size >= MAX_BLOCKED_ADDRESSES) {
        for (const [other, until] of blocked) if (until <= now.getTime()) blocked.delete(other);
        if (blocked.size >= MAX_BLOCKED_ADDRESSES) blocked.delete(blocked.keys().next().value!);
      }
      blocked.set(address, (window + 1) * windowMs);
    },
  };
}
