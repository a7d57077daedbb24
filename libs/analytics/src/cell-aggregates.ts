import { rollupQuantilesSql, valuesQuantilesSql } from './log-histogram.js';
import type { QuerySource } from './query-source.js';

/** Frames longer than these are hitches (the 30 fps and 20 fps frame budgets missed). */
export const HITCH_THRESHOLDS_MS = [33.3, 50] as const;

/**
 * The averaged fields of a cell: the events' column (a value above 0 is a sample), what is
 * summed of it (floats in Float64, memory's Int64 as it is: clickhouse/014 sums the same), and
 * the cell rollup's sample count and sum columns.
 */
const AVERAGED = {
  frameTimeMean: {
    column: 'frame_time_ms',
    summed: 'toFloat64(frame_time_ms)',
    samples: 'frame_samples',
    sum: 'frame_time_sum',
  },
  fps: { column: 'fps', summed: 'toFloat64(fps)', samples: 'fps_samples', sum: 'fps_sum' },
  memoryBytes: {
    column: 'memory_used_bytes',
    summed: 'memory_used_bytes',
    samples: 'memory_samples',
    sum: 'memory_sum',
  },
  gpuTime: {
    column: 'gpu_time_ms',
    summed: 'toFloat64(gpu_time_ms)',
    samples: 'gpu_time_samples',
    sum: 'gpu_time_sum',
  },
  gameThread: {
    column: 'game_thread_ms',
    summed: 'toFloat64(game_thread_ms)',
    samples: 'game_thread_samples',
    sum: 'game_thread_sum',
  },
  renderThread: {
    column: 'render_thread_ms',
    summed: 'toFloat64(render_thread_ms)',
    samples: 'render_thread_samples',
    sum: 'render_thread_sum',
  },
} as const;
type Averaged = keyof typeof AVERAGED;

/** Frame-time samples, their sum and sum of squares, per source: what the mean and variance are made of. */
const FRAME_TIME_SUMS: Record<QuerySource, { n: string; sum: string; squares: string }> = {
  rollups: { n: 'sum(frame_samples)', sum: 'sum(frame_time_sum)', squares: 'sum(frame_time_squares)' },
  events: {
    n: 'countIf(frame_time_ms > 0)',
    sum: 'sumIf(toFloat64(frame_time_ms), frame_time_ms > 0)',
    squares: 'sumIf(toFloat64(frame_time_ms) * frame_time_ms, frame_time_ms > 0)',
  },
};

/** Sample variance from the count, sum and sum of squares (NaN below two samples; rounding can't make it negative). */
function varianceSql({ n, sum, squares }: { n: string; sum: string; squares: string }): string {
  return `greatest((${squares} - ${sum} * ${sum} / ${n}) / (${n} - 1), 0)`;
}

function averagesOf(source: QuerySource): Record<Averaged, string> {
  const entries = Object.entries(AVERAGED).map(([name, f]) => [
    name,
    source === 'rollups'
      ? `sum(${f.sum}) / sum(${f.samples})`
      : `sumIf(${f.summed}, ${f.column} > 0) / countIf(${f.column} > 0)`,
  ]);
  return Object.fromEntries(entries) as Record<Averaged, string>;
}

/**
 * The per-cell aggregates of the heatmap, the worst areas and the per-cell build comparison,
 * by name, on both sources: sums over the cell rollup's plain columns (clickhouse/014, whose
 * views keep the same conditions) or the same sums over the events they are tested against.
 * An average is sum / samples (NaN, written null, without samples); frame-time quantiles
 * (p50, p95, p99, in ms) come from the log-bucket histogram (log-histogram.ts).
 */
export const CELL_AGGREGATES: Record<QuerySource, Record<CellAggregate, string>> = {
  rollups: {
    ...averagesOf('rollups'),
    events: 'sum(events)',
    frameSamples: FRAME_TIME_SUMS.rollups.n,
    frameTimeVariance: varianceSql(FRAME_TIME_SUMS.rollups),
    frameTimeQuantiles: rollupQuantilesSql('frame_time_histogramMap'),
    hitches33: 'sum(hitches_33ms)',
    hitches50: 'sum(hitches_50ms)',
    zMin: 'minMerge(min_z)',
    zMax: 'maxMerge(max_z)',
  },
  events: {
    ...averagesOf('events'),
    events: 'count()',
    frameSamples: FRAME_TIME_SUMS.events.n,
    frameTimeVariance: varianceSql(FRAME_TIME_SUMS.events),
    frameTimeQuantiles: valuesQuantilesSql('frame_time_ms', 'frame_time_ms > 0'),
    hitches33: `countIf(frame_time_ms > ${HITCH_THRESHOLDS_MS[0]})`,
    hitches50: `countIf(frame_time_ms > ${HITCH_THRESHOLDS_MS[1]})`,
    zMin: 'min(position_z)',
    zMax: 'max(position_z)',
  },
};

export type CellAggregate =
  | Averaged
  | 'events'
  | 'frameSamples'
  | 'frameTimeVariance'
  | 'frameTimeQuantiles'
  | 'hitches33'
  | 'hitches50'
  | 'zMin'
  | 'zMax';
