import type { SlidingWindowCounter, WindowDecision } from './sliding-window.js';

/**
 * Counts in `primary` (Redis) and, while it fails, in `fallback` (this process's memory).
 * Availability wins over a shared count: an outage of the limiter's store must not take the
 * API down, and the in-process window still stops a runaway client on each instance.
 */
export class FailOpenSlidingWindow implements SlidingWindowCounter {
  constructor(
    private readonly primary: SlidingWindowCounter,
    private readonly fallback: SlidingWindowCounter,
    private readonly onPrimaryError: (error: unknown) => void,
  ) {}

  hit(key: string, limit: number): Promise<WindowDecision> {
    return this.withFallback((counter) => counter.hit(key, limit));
  }

  undo(key: string): Promise<void> {
    return this.withFallback((counter) => counter.undo(key));
  }

  reset(key: string): Promise<void> {
    return this.withFallback((counter) => counter.reset(key));
  }

  private async withFallback<T>(operation: (counter: SlidingWindowCounter) => Promise<T>): Promise<T> {
    try {
      return await operation(this.primary);
    } catch (error) {
      this.onPrimaryError(error);
      return operation(this.fallback);
    }
  }
}
