import type { BuildCell } from '../api/analytics.api';

/**
 * The diff heatmap's colour scale: a fixed ±DIFF_SCALE_PERCENT change of mean frame time, the
 * same for every pair of builds so two comparisons read alike (a scale fitted to the data
 * would make a 6 % regression as red as a 60 % one). Changes beyond it are drawn at its ends.
 */
export const DIFF_SCALE_PERCENT = 30;

export type Rgb = [number, number, number];
export type CellPaint = { rgb: Rgb; alpha: number };

// Diverging: blue = faster (frame time down), grey = no change, red = slower (frame time up).
const FASTER: Rgb = [49, 130, 246];
const NEUTRAL: Rgb = [148, 154, 166];
const SLOWER: Rgb = [239, 50, 50];

/** The outline of a regressed cell: bright yellow reads on the red fill and on any map image. */
export const REGRESSION_OUTLINE = '#ffd400';

// A significant change is never paler than this share of its end colour: a 6 % regression must
// still read as red next to the grey of unchanged cells.
const MIN_INTENSITY = 0.45;

/** The colour at a change of `deltaPercent` (frame time; positive = slower) on the fixed scale. */
export function divergingColor(deltaPercent: number): Rgb {
  const t = Math.min(1, Math.abs(deltaPercent) / DIFF_SCALE_PERCENT);
  const end = deltaPercent < 0 ? FASTER : SLOWER;
  return mix(NEUTRAL, end, t);
}

/**
 * How a cell is drawn: better/worse cells in the diverging colour of their change (at least
 * MIN_INTENSITY strong), unchanged cells grey, cells without enough samples grey and faded.
 */
export function cellPaint(cell: Pick<BuildCell, 'verdict' | 'deltaPercent'>): CellPaint {
  if (cell.verdict === 'insufficient' || cell.deltaPercent === null) return { rgb: NEUTRAL, alpha: 0.22 };
  if (cell.verdict === 'unchanged') return { rgb: NEUTRAL, alpha: 0.5 };
  const t = Math.max(MIN_INTENSITY, Math.min(1, Math.abs(cell.deltaPercent) / DIFF_SCALE_PERCENT));
  return { rgb: mix(NEUTRAL, cell.deltaPercent < 0 ? FASTER : SLOWER, t), alpha: 0.78 };
}

/** The legend bar: −scale (faster, left) … 0 … +scale (slower, right). */
export function divergingGradient(): string {
  const stops = [-1, -0.5, 0, 0.5, 1].map((f) => {
    const [r, g, b] = divergingColor(f * DIFF_SCALE_PERCENT);
    return `rgb(${r} ${g} ${b}) ${(f + 1) * 50}%`;
  });
  return `linear-gradient(90deg, ${stops.join(', ')})`;
}

/** The legend's ticks, in percent: −scale, −scale/2, 0, +scale/2, +scale. */
export const DIFF_TICKS = [-1, -0.5, 0, 0.5, 1].map((f) => f * DIFF_SCALE_PERCENT);

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [0, 1, 2].map((k) => Math.round(a[k]! + (b[k]! - a[k]!) * t)) as Rgb;
}
