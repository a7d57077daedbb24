/**
 * A sliding window counts the requests of the last `windowMs` milliseconds, exactly: each
 * accepted request is one entry with its time, and an entry leaves the window `windowMs` after
 * it was made. (A fixed window — the stock Redis store of express-rate-limit — lets a client
 * send twice its limit across a window boundary.)
 *
 * NOTE: a refused request is not recorded. A client that keeps retrying while limited does not
 * push its own recovery further away, and `retryAt` stays what we promised in Retry-After.
 */
export type WindowDecision = {
  allowed: boolean;
  /** Entries in the window after this hit (the refused hit not included). */
  count: number;
  /**
   * Allowed: when the oldest counted entry leaves the window (Remaining grows then).
   * Refused: when enough entries have left for a request to be accepted again.
   * Unix milliseconds.
   */
  resetAtMs: number;
};

export interface SlidingWindowCounter {
  /** Records one hit for `key` if fewer than `limit` are in the window, atomically. */
  hit(key: string, limit: number): Promise<WindowDecision>;
  /** Forgets the newest entry of `key` (a request that should not have counted). */
  undo(key: string): Promise<void>;
  /** Forgets every entry of `key`. */
  reset(key: string): Promise<void>;
}

export type Clock = () => number;

/**
 * The decision for a window whose entries (times in ms, oldest first, expired ones already
 * removed) are `entries`, before this hit is recorded. Shared by the in-process counter and
 * the tests; the Redis script implements the same rules in Lua.
 */
export function decide(entries: readonly number[], now: number, windowMs: number, limit: number): WindowDecision {
  if (entries.length < limit) {
    const oldest = entries[0] ?? now;
    return { allowed: true, count: entries.length + 1, resetAtMs: oldest + windowMs };
  }
  // count - limit + 1 entries must leave before the next request fits; the last of them is at
  // index count - limit (more than one when a plan's limit was lowered below current usage).
  const blocking = entries[entries.length - limit]!;
  return { allowed: false, count: entries.length, resetAtMs: blocking + windowMs };
}

/** Seconds a refused client should wait, rounded up so that it never comes back too early. */
export function retryAfterSeconds(decision: WindowDecision, now: number): number {
  return Math.max(1, Math.ceil((decision.resetAtMs - now) / 1000));
}
