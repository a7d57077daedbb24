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

export function createIngestLimiter(redis: Redis, logger: Logger): IngestLimiter {
  let lastWarning = 0;
  const failOpen = (error: unknown, what: string) => {
    const now = Date.now();
    if (now - lastWarning > 10_000) {
      lastWarning = now;
      logger.warn({ err: (error as Error).message, limit: what }, 'redis unavailable: ingest limits not enforced');
    }
  };

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
