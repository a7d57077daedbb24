import type { SlidingWindowCounter } from './sliding-window.js';

/**
 * The subset of express-rate-limit's `Store` we implement (structurally typed, so this library
 * does not depend on express). One store serves one limit: express-rate-limit hands the store
 * only a key, and an exact sliding window must know the limit to decide atomically whether to
 * record a hit. Create one rate limiter per distinct limit (they share the keys in Redis).
 */
export class SlidingWindowStore {
  /** Tells express-rate-limit the counts are shared across processes. */
  readonly localKeys = false;

  constructor(
    private readonly counter: SlidingWindowCounter,
    private readonly limit: number,
  ) {}

  async increment(key: string): Promise<{ totalHits: number; resetTime: Date }> {
    const decision = await this.counter.hit(key, this.limit);
    // A refused hit is reported one above what fits, so express-rate-limit sees the limit passed.
    const totalHits = decision.allowed ? decision.count : Math.max(decision.count, this.limit) + 1;
    return { totalHits, resetTime: new Date(decision.resetAtMs) };
  }

  decrement(key: string): Promise<void> {
    return this.counter.undo(key);
  }

  resetKey(key: string): Promise<void> {
    return this.counter.reset(key);
  }
}
