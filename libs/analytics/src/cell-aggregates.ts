import type { QuerySource } from './query-source.js';

/** Frames longer than these are hitches (the 30 fps and 20 fps frame budgets missed). */
export const HITCH_THRESHOLDS_MS = [33.3, 50] as const;

/**
 * The per-cell aggregates of the heatmap, the worst areas and the per-cell build comparison,
 * by name, on both sources: merges of the cell rollup's states (clickhouse/007, whose views
 * keep the same conditions) or the plain aggregates over events they are tested against.
 * Frame-time quantiles are quantileTiming over tenths of a millisecond (p50, p95, p99): its
 * state is a histogram, so merged states give exactly one pass's answer.
 */
export const CELL_AGGREGATES: Record<QuerySource, Record<CellAggregate, string>> = {
  rollups: {
    events: 'countMerge(events)',
    frameSamples: 'countIfMerge(frame_samples)',
    frameTimeMean: 'avgIfMerge(avg_frame_time)',
    frameTimeVariance: 'varSampIfMerge(frame_time_var)',
    frameTimeQuantiles: 'quantilesTimingIfMerge(0.5, 0.95, 0.99)(frame_time_q)',
    fps: 'avgIfMerge(avg_fps)',
    memoryBytes: 'avgIfMerge(avg_memory)',
    gpuTime: 'avgIfMerge(avg_gpu_time)',
    gameThread: 'avgIfMerge(avg_game_thread)',
    renderThread: 'avgIfMerge(avg_render_thread)',
    hitches33: 'countIfMerge(hitches_33ms)',
    hitches50: 'countIfMerge(hitches_50ms)',
    zMin: 'minMerge(min_z)',
    zMax: 'maxMerge(max_z)',
  },
  events: {
    events: 'count()',
    frameSamples: 'countIf(frame_time_ms > 0)',
    frameTimeMean: 'avgIf(frame_time_ms, frame_time_ms > 0)',
    frameTimeVariance: 'varSampIf(frame_time_ms, frame_time_ms > 0)',
    frameTimeQuantiles: 'quantilesTimingIf(0.5, 0.95, 0.99)(toFloat64(round(frame_time_ms * 10)), frame_time_ms > 0)',
    fps: 'avgIf(fps, fps > 0)',
    memoryBytes: 'avgIf(memory_used_bytes, memory_used_bytes > 0)',
    gpuTime: 'avgIf(gpu_time_ms, gpu_time_ms > 0)',
    gameThread: 'avgIf(game_thread_ms, game_thread_ms > 0)',
    renderThread: 'avgIf(render_thread_ms, render_thread_ms > 0)',
    hitches33: `countIf(frame_time_ms > ${HITCH_THRESHOLDS_MS[0]})`,
    hitches50: `countIf(frame_time_ms > ${HITCH_THRESHOLDS_MS[1]})`,
    zMin: 'min(position_z)',
    zMax: 'max(position_z)',
  },
};

export type CellAggregate =
  | 'events'
  | 'frameSamples'
  | 'frameTimeMean'
  | 'frameTimeVariance'
  | 'frameTimeQuantiles'
  | 'fps'
  | 'memoryBytes'
  | 'gpuTime'
  | 'gameThread'
  | 'renderThread'
  | 'hitches33'
  | 'hitches50'
  | 'zMin'
  | 'zMax';
