import { randomBytes } from 'node:crypto';
import type { Redis } from '@framedeck/redis';
import type { Clock, SlidingWindowCounter, WindowDecision } from './sliding-window.js';

/**
 * One sorted set per key: member = a unique request id, score = its time in ms. The script
 * trims expired entries, counts, and records the hit only if it fits — all in one atomic step,
 * so any number of API instances sharing Redis count exactly (same rules as `decide`).
 * Memory is O(limit) per key: ~100 bytes per request in the window.
 */
const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
local index = count - limit
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  count = count + 1
  allowed = 1
  index = 0
end
redis.call('PEXPIRE', KEYS[1], window)
local entry = redis.call('ZRANGE', KEYS[1], index, index, 'WITHSCORES')
local reset = now + window
if entry[2] then reset = tonumber(entry[2]) + window end
return {allowed, count, reset}
`;

type ScriptedRedis = Redis & {
  slidingWindowHit(key: string, now: number, windowMs: number, limit: number, member: string): Promise<number[]>;
};

export class RedisSlidingWindow implements SlidingWindowCounter {
  private readonly redis: ScriptedRedis;
  private readonly now: Clock;
  // Unique per process, so two instances hitting the same ms never write the same member.
  private readonly instance = randomBytes(6).toString('base64url');
  private sequence = 0;

  /**
   * NOTE: times come from this process's clock (injectable for tests), not Redis's TIME, so
   * instances sharing a window should run NTP; a few ms of skew only shifts an entry's expiry
   * by as much.
   */
  constructor(
    redis: Redis,
    private readonly options: { windowMs: number; keyPrefix?: string; now?: Clock },
  ) {
    if (!('slidingWindowHit' in redis)) {
      redis.defineCommand('slidingWindowHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    }
    this.redis = redis as ScriptedRedis;
    this.now = options.now ?? Date.now;
  }

  async hit(key: string, limit: number): Promise<WindowDecision> {
    const now = this.now();
    const member = `${now}:${this.instance}:${(this.sequence = (this.sequence + 1) % 1e9)}`;
    const [allowed, count, resetAtMs] = await this.redis.slidingWindowHit(
      this.key(key),
      now,
      this.options.windowMs,
      limit,
      member,
    );
    return { allowed: allowed === 1, count: count!, resetAtMs: resetAtMs! };
  }

  async undo(key: string): Promise<void> {
    await this.redis.zpopmax(this.key(key));
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.key(key));
  }

  private key(key: string): string {
    return `${this.options.keyPrefix ?? 'rl:'}${key}`;
  }
}
