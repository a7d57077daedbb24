import { METRIC_DIRECTION, type AlertMetric, type AlertStatus } from './alert-rule.model.js';

/** One heatmap cell as the evaluator sees it; null = no sample of that metric in the cell. */
export type EvaluationCell = {
  /** Cell centre in world units. */
  x: number;
  y: number;
  eventCount: number;
  avgFps: number | null;
  avgFrameTimeMs: number | null;
  avgMemoryMb: number | null;
  avgGpuTimeMs: number | null;
  /** 99th percentile of the cell's frame times. */
  p99FrameTimeMs: number | null;
  /**
   * Percent (0–100) of the cell's frame samples over 33.3 ms and over 50 ms (the 30 and 20 fps
   * budgets missed: libs/analytics HITCH_THRESHOLDS_MS).
   */
  hitchShare33msPercent: number | null;
  hitchShare50msPercent: number | null;
};

/** Where each metric's value is in a cell. */
const METRIC_FIELD: Record<AlertMetric, Exclude<keyof EvaluationCell, 'x' | 'y' | 'eventCount'>> = {
  fps: 'avgFps',
  frame_time: 'avgFrameTimeMs',
  memory: 'avgMemoryMb',
  gpu_time: 'avgGpuTimeMs',
  p99_frame_time: 'p99FrameTimeMs',
  hitch_share_33ms: 'hitchShare33msPercent',
  hitch_share_50ms: 'hitchShare50msPercent',
};

/** A cell named in a verdict: its centre, its value of the rule's metric, its events. */
export type WorstCell = { x: number; y: number; value: number; eventCount: number; failing: boolean };

export type CellEvaluation = {
  status: AlertStatus;
  /** Cells whose average is worse than the threshold. */
  failingCells: number;
  /** Cells with at least one sample of the metric (the denominator of failPercentage). */
  totalCells: number;
  /** failingCells / totalCells × 100, 0 when there is no data. */
  failingPercentage: number;
  /** The worst cells with data, worst first (failing ones come first by construction). */
  worstCells: WorstCell[];
};

export type EvaluationCriteria = {
  metric: AlertMetric;
  /** The profile's limit for the rule's metric at the rule's level (see thresholdFor). */
  threshold: number;
  failPercentage: number;
};

export const WORST_CELLS_REPORTED = 5;

export function metricValue(cell: EvaluationCell, metric: AlertMetric): number | null {
  const value = cell[METRIC_FIELD[metric]];
  return value !== null && Number.isFinite(value) ? value : null;
}

/** A value exactly at the limit passes: "fps good ≥ 60" means 60 is good. */
export function isWorse(metric: AlertMetric, value: number, threshold: number): boolean {
  return METRIC_DIRECTION[metric] === 'higher_is_better' ? value < threshold : value > threshold;
}

/**
 * The rule's verdict over one map's cells: triggered when failing cells make up at least
 * failPercentage of the cells that have data for the metric, else resolved.
 * NOTE: no cell with data (nobody played the map in the window, or no GPU samples for
 * gpu_time) is "resolved" with totalCells 0: a map nobody plays is not degrading, and the
 * history entry shows totalCells 0 so the difference is visible.
 */
export function evaluateCells(cells: readonly EvaluationCell[], criteria: EvaluationCriteria): CellEvaluation {
  const { metric, threshold, failPercentage } = criteria;
  const measured = cells.flatMap((cell) => {
    const value = metricValue(cell, metric);
    return value === null || cell.eventCount <= 0
      ? []
      : [{ x: cell.x, y: cell.y, value, eventCount: cell.eventCount, failing: isWorse(metric, value, threshold) }];
  });
  const failingCells = measured.filter((c) => c.failing).length;
  const totalCells = measured.length;
  // Integer-safe comparison: failing / total ≥ pct / 100.
  const triggered = totalCells > 0 && failingCells * 100 >= failPercentage * totalCells;
  const worstFirst = (a: WorstCell, b: WorstCell) =>
    (isWorse(metric, a.value, b.value) ? -1 : isWorse(metric, b.value, a.value) ? 1 : 0) ||
    b.eventCount - a.eventCount ||
    a.x - b.x ||
    a.y - b.y;
  return {
    status: triggered ? 'triggered' : 'resolved',
    failingCells,
    totalCells,
    failingPercentage: totalCells === 0 ? 0 : (failingCells * 100) / totalCells,
    worstCells: measured.sort(worstFirst).slice(0, WORST_CELLS_REPORTED),
  };
}
