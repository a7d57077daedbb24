import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { redisSection } from '@framedeck/config';
import { createRedisClient } from '@framedeck/redis';
import { TEST_ENV } from '../../../tests/support/config.js';
import { MemorySlidingWindow } from './memory-sliding-window.js';
import { RedisSlidingWindow } from './redis-sliding-window.js';

const redis = createRedisClient(redisSection(TEST_ENV));
beforeAll(async () => {
  if (redis.status !== 'ready') await once(redis, 'ready'); // no offline queue: wait for the connection
});
afterAll(() => redis.quit());

it('the Lua script decides exactly like the in-process window, step by step', async () => {
  let now = 1_700_000_000_000;
  const clock = () => now;
  const windowMs = 1_000;
  const prefix = `rl-parity-${randomUUID()}:`;
  const inRedis = new RedisSlidingWindow(redis, { windowMs, now: clock, keyPrefix: prefix });
  const inMemory = new MemorySlidingWindow({ windowMs, now: clock });
  // A deterministic pseudo-random walk: bursts, pauses, limit changes, exact window edges.
  let seed = 42;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let step = 0; step < 400; step++) {
    const roll = next();
    now += roll < 0.6 ? 0 : roll < 0.9 ? Math.floor(next() * 200) : windowMs; // windowMs: lands on an edge
    const limit = next() < 0.9 ? 5 : 2;
    const [fromRedis, fromMemory] = [await inRedis.hit('k', limit), await inMemory.hit('k', limit)];
    expect(fromRedis, `step ${step}`).toEqual(fromMemory);
  }
  expect(await redis.pttl(`${prefix}k`)).toBeGreaterThan(0); // keys expire on their own
});
