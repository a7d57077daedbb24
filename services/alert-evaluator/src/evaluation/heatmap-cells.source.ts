import { queryHeatmap, type MapBounds } from '@framedeck/analytics';
import type { EvaluationCell } from '@framedeck/alerts';
import type { ClickHouseReader } from '@framedeck/clickhouse';

export type CellQuery = {
  projectId: string;
  /** The user-specified map id (events.map_id). */
  mapId: string;
  bounds: MapBounds;
  cellSize: number;
  days: number;
  now: Date;
};

/** Where a rule's cells come from; the evaluator takes it as an option (tests may pass fixtures). */
export type CellSource = (query: CellQuery) => Promise<EvaluationCell[]>;

/**
 * The Performance-mode heatmap of libs/analytics (the same cells QA sees in the dashboard),
 * in the evaluator's shape.
 * NOTE: the heatmap reports 0 for an average with no sample (it only averages values above 0),
 * so 0 is "no data" here, not a measurement. The tails are null without frame samples, and a
 * hitch share of 0 is a measurement (no hitch); shares become percentages, as profiles hold them.
 */
export function heatmapCellSource(clickhouse: ClickHouseReader): CellSource {
  return async (q) => {
    const cells = await queryHeatmap(clickhouse, {
      projectId: q.projectId,
      mapId: q.mapId,
      bounds: q.bounds,
      cellSize: q.cellSize,
      days: q.days,
      now: q.now,
    });
    const sample = (value: number | null) => (value !== null && value > 0 ? value : null);
    const percent = (share: number | null) => (share === null ? null : share * 100);
    return cells.map((c) => ({
      x: c.x,
      y: c.y,
      eventCount: c.event_count,
      avgFps: sample(c.avg_fps),
      avgFrameTimeMs: sample(c.avg_frame_time),
      avgMemoryMb: sample(c.avg_memory),
      avgGpuTimeMs: sample(c.avg_gpu_time),
      p99FrameTimeMs: c.p99_frame_time,
      hitchShare33msPercent: percent(c.hitch_share_33ms),
      hitchShare50msPercent: percent(c.hitch_share_50ms),
    }));
  };
}
