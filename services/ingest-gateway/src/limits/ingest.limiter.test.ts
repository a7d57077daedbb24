import { describe, expect, it } from 'vitest';
import { secondsUntilNextMonth } from './ingest.limiter.js';

describe('monthly budget window', () => {
  it('resets at the start of the next UTC month', () => {
    expect(secondsUntilNextMonth(new Date('2026-01-31T23:59:00Z'))).toBe(60);
    expect(secondsUntilNextMonth(new Date('2026-12-31T23:59:59.500Z'))).toBe(1);
    expect(secondsUntilNextMonth(new Date('2026-02-01T00:00:00Z'))).toBe(28 * 86_400);
  });
});
