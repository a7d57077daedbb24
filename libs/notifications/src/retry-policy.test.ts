import { describe, expect, it } from 'vitest';
import { backoffDelayMs, verdictForStatus } from './retry-policy.js';

describe('retry policy', () => {
  const policy = { maxAttempts: 8, baseDelayMs: 1000, maxDelayMs: 60_000 };

  it('doubles the delay per attempt, within [half, full] of the ceiling, capped', () => {
    expect(backoffDelayMs(1, policy, () => 0)).toBe(500);
    expect(backoffDelayMs(1, policy, () => 1)).toBe(1000);
    expect(backoffDelayMs(3, policy, () => 0)).toBe(2000);
    expect(backoffDelayMs(3, policy, () => 1)).toBe(4000);
    expect(backoffDelayMs(20, policy, () => 1)).toBe(60_000);
    expect(backoffDelayMs(20, policy, () => 0)).toBe(30_000);
  });

  it('retries only what may succeed later', () => {
    expect(verdictForStatus(200)).toBe('delivered');
    expect(verdictForStatus(204)).toBe('delivered');
    for (const s of [408, 425, 429, 500, 502, 503]) expect(verdictForStatus(s)).toBe('retry');
    for (const s of [301, 400, 401, 403, 404, 410]) expect(verdictForStatus(s)).toBe('give_up');
  });
});
