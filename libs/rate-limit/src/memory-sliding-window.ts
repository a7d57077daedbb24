import { decide, type Clock, type SlidingWindowCounter, type WindowDecision } from './sliding-window.js';

/**
 * The same sliding window kept in this process only. Used when Redis is unreachable, so a
 * Redis outage degrades the limit to "per API instance" instead of switching it off.
 * Bounded: at most `maxKeys` keys (least recently used ones are dropped first) and at most
 * `limit` entries per key.
 */
export class MemorySlidingWindow implements SlidingWindowCounter {
  private readonly logs = new Map<string, number[]>();
  private readonly now: Clock;
  private readonly maxKeys: number;

  constructor(private readonly options: { windowMs: number; now?: Clock; maxKeys?: number }) {
    this.now = options.now ?? Date.now;
    this.maxKeys = options.maxKeys ?? 10_000;
  }

  async hit(key: string, limit: number): Promise<WindowDecision> {
    const now = this.now();
    const log = this.live(key, now);
    const decision = decide(log, now, this.options.windowMs, limit);
    if (decision.allowed) log.push(now);
    // Re-inserting keeps the Map in least-recently-used order for eviction.
    this.logs.delete(key);
    this.logs.set(key, log);
    if (this.logs.size > this.maxKeys) this.logs.delete(this.logs.keys().next().value!);
    return decision;
  }

  async undo(key: string): Promise<void> {
    this.logs.get(key)?.pop();
  }

  async reset(key: string): Promise<void> {
    this.logs.delete(key);
  }

  private live(key: string, now: number): number[] {
    const log = this.logs.get(key) ?? [];
    const cutoff = now - this.options.windowMs;
    let expired = 0;
    while (expired < log.length && log[expired]! <= cutoff) expired++;
    if (expired > 0) log.splice(0, expired);
    return log;
  }
}
