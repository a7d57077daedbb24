import { describe, expect, it } from 'vitest';
import { allowedOr } from './search-values';

describe('allowedOr', () => {
  it('keeps an offered value and replaces anything else with the default', () => {
    expect(allowedOr('10', [5, 10, 25, 50], 25)).toBe(10);
    expect(allowedOr('7', [5, 10, 25, 50], 25)).toBe(25);
    expect(allowedOr('', [5, 10, 25, 50], 25)).toBe(25);
    expect(allowedOr('1e1', [5, 10, 25, 50], 25)).toBe(10);
    expect(allowedOr('abc', [1, 7, 14, 30], 7)).toBe(7);
  });
});
