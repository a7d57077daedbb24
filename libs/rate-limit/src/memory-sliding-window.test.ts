import { describe, expect, it } from 'vitest';
import { MemorySlidingWindow } from './memory-sliding-window.js';
import { retryAfterSeconds } from './sliding-window.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('MemorySlidingWindow', () => {
  it('slides: entries leave one by one, not all at a boundary', async () => {
    const c = clock();
    const window = new MemorySlidingWindow({ windowMs: 10_000, now: c.now });
    expect((await window.hit('t', 3)).allowed).toBe(true); // t=0
    c.advance(4_000);
    expect((await window.hit('t', 3)).allowed).toBe(true); // t=4
    expect((await window.hit('t', 3)).allowed).toBe(true); // t=4
    const refused = await window.hit('t', 3);
    expect(refused).toEqual({ allowed: false, count: 3, resetAtMs: 1_000_000 + 10_000 });
    expect(retryAfterSeconds(refused, c.now())).toBe(6);
    c.advance(5_999);
    expect((await window.hit('t', 3)).allowed).toBe(false); // 1 ms before the first entry leaves
    c.advance(1);
    expect((await window.hit('t', 3)).allowed).toBe(true); // the t=0 entry left: one slot
    expect((await window.hit('t', 3)).allowed).toBe(false); // a fixed window would allow 3 here
  });

  it('does not record refused hits, so retrying does not push recovery back', async () => {
    const c = clock();
    const window = new MemorySlidingWindow({ windowMs: 1_000, now: c.now });
    await window.hit('t', 1);
    for (let i = 0; i < 5; i++) {
      c.advance(100);
      expect((await window.hit('t', 1)).resetAtMs).toBe(1_001_000);
    }
    c.advance(500);
    expect((await window.hit('t', 1)).allowed).toBe(true);
  });

  it('waits for as many entries as needed when usage is above a lowered limit', async () => {
    const c = clock(0);
    const window = new MemorySlidingWindow({ windowMs: 100, now: c.now });
    for (let i = 0; i < 5; i++) {
      await window.hit('t', 10);
      c.advance(10);
    }
    // 5 entries at 0,10,20,30,40; limit now 2: entries at 0,10,20,30 must leave → at 130.
    expect(await window.hit('t', 2)).toEqual({ allowed: false, count: 5, resetAtMs: 130 });
  });

  it('keeps at most maxKeys keys', async () => {
    const window = new MemorySlidingWindow({ windowMs: 1_000, maxKeys: 2 });
    await window.hit('a', 1);
    await window.hit('b', 1);
    await window.hit('c', 1);
    expect((await window.hit('a', 1)).allowed).toBe(true); // 'a' was evicted
  });
});
