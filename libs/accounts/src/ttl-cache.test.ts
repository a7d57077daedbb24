import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.js';

describe('TtlCache', () => {
  it('serves hits until they expire, with a per-value TTL', async () => {
    let now = 0;
    const cache = new TtlCache<string>({ maxEntries: 10, ttlMs: (v) => (v === 'miss' ? 100 : 1000), now: () => now });
    let loads = 0;
    const load = (value: string) => async () => {
      loads++;
      return value;
    };
    expect(await cache.get('a', load('hit'))).toBe('hit');
    expect(await cache.get('b', load('miss'))).toBe('miss');
    now = 500;
    expect(await cache.get('a', load('changed'))).toBe('hit');
    expect(await cache.get('b', load('now-found'))).toBe('now-found');
    now = 1001;
    expect(await cache.get('a', load('changed'))).toBe('changed');
    expect(loads).toBe(4);
  });

  it('loads once for concurrent misses and does not cache failures', async () => {
    const cache = new TtlCache<number>({ maxEntries: 10, ttlMs: () => 1000 });
    let loads = 0;
    const slow = () => new Promise<number>((r) => setTimeout(() => r(++loads), 10));
    expect(await Promise.all([cache.get('k', slow), cache.get('k', slow)])).toEqual([1, 1]);
    await expect(cache.get('x', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.get('x', async () => 7)).toBe(7);
  });

  it('evicts the oldest entry beyond its bound', async () => {
    const cache = new TtlCache<number>({ maxEntries: 2, ttlMs: () => 1000 });
    for (const [k, v] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      await cache.get(k, async () => v);
    expect(cache.size).toBe(2);
    expect(await cache.get('a', async () => 10)).toBe(10);
  });
});
