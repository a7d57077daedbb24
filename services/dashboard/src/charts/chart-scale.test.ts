import { describe, expect, it } from 'vitest';
import { linear, niceTicks } from './chart-scale';

describe('chart scales', () => {
  it('picks round ticks that cover the maximum', () => {
    expect(niceTicks(421)).toEqual([0, 200, 400, 600]);
    expect(niceTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(0.3).at(-1)).toBeGreaterThanOrEqual(0.3);
  });

  it('maps values linearly, inverted axes included', () => {
    const y = linear(100, 200, 0);
    expect(y(0)).toBe(200);
    expect(y(50)).toBe(100);
  });
});
