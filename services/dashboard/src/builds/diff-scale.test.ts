import { describe, expect, it } from 'vitest';
import { cellPaint, DIFF_SCALE_PERCENT, DIFF_TICKS, divergingColor } from './diff-scale';

const isReddish = ([r, , b]: number[]) => r! > b! + 40;
const isBluish = ([r, , b]: number[]) => b! > r! + 40;

describe('the diff heatmap scale', () => {
  it('runs blue (faster) through grey to red (slower), clamped at its fixed ends', () => {
    expect(isBluish(divergingColor(-DIFF_SCALE_PERCENT))).toBe(true);
    expect(isReddish(divergingColor(DIFF_SCALE_PERCENT))).toBe(true);
    const [r, g, b] = divergingColor(0);
    expect(Math.max(r, g, b) - Math.min(r, g, b)).toBeLessThan(30); // grey
    expect(divergingColor(500)).toEqual(divergingColor(DIFF_SCALE_PERCENT));
    expect(DIFF_TICKS).toEqual([-30, -15, 0, 15, 30]);
  });

  it('colours only significant cells, and a small significant change still clearly', () => {
    const worse = cellPaint({ verdict: 'worse', deltaPercent: 6 });
    expect(isReddish(worse.rgb)).toBe(true);
    expect(isBluish(cellPaint({ verdict: 'better', deltaPercent: -6 }).rgb)).toBe(true);
    const unchanged = cellPaint({ verdict: 'unchanged', deltaPercent: 4 });
    expect(isReddish(unchanged.rgb)).toBe(false);
    const insufficient = cellPaint({ verdict: 'insufficient', deltaPercent: null });
    expect(insufficient.alpha).toBeLessThan(unchanged.alpha);
    expect(unchanged.alpha).toBeLessThan(worse.alpha);
  });
});
