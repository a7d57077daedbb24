import { join, raw, sql, type ClickHouseReader } from '@framedeck/clickhouse';
import { CELL_AGGREGATES } from './cell-aggregates.js';
import {
  cellCentre,
  cellSelection,
  cellsAlong,
  frameTailColumns,
  heatmapSource,
  type HeatmapQuery,
} from './heatmap.query.js';
import type { WorstArea } from './heatmap.schema.js';
import type { QuerySource } from './query-source.js';

export const WORST_AREAS_LIMIT = { default: 10, max: 50 } as const;

/** The heatmap's view (map, cell size, range, filters, z slice) in Performance mode, and the ranking's knobs. */
export type WorstAreasQuery = Omit<HeatmapQuery, 'eventName' | 'includeZ'> & {
  /** Cells with fewer frame samples are left out (too few to rank). */
  minSamples: number;
  limit: number;
};

type AreaRow = {
  cell: number | string;
  c_samples: number | string;
  p95_frame_time: number | null;
  p99_frame_time: number | null;
  hitch_share_33ms: number | null;
  hitch_share_50ms: number | null;
  avg_fps: number | null;
};
type PlatformRow = { cell: number | string; platform: string; c_samples: number | string };

/**
 * The slowest cells of a map: heatmap cells (Performance mode, the same filters) with at least
 * `minSamples` frame samples, worst p95 frame time first; ties by p99, then by more samples,
 * then by position (y, then x). Each with its platform mix (frame samples per platform, most
 * first), so a red cell that only Switch players walk through reads as such. From the rollups
 * when the heatmap would be (the heatmap's own rollup for the ranking, the full cell rollup for
 * the platform mix), else from the events.
 */
export async function queryWorstAreas(
  clickhouse: ClickHouseReader,
  q: WorstAreasQuery,
  wanted: QuerySource = 'rollups',
): Promise<WorstArea[]> {
  const heatmap: HeatmapQuery = { ...q, eventName: undefined };
  const source = heatmapSource(heatmap, wanted);
  // The ranking reads what the heatmap reads (the overview rollup when unfiltered: far fewer
  // rows); the platform mix of the ranked cells needs the full rollup, whose rows are per platform.
  const view = cellSelection(heatmap, source);
  const { cell, from } = cellSelection(heatmap, source, { byDimension: true });
  const a = CELL_AGGREGATES[source];
  const ranked = await clickhouse.rows<AreaRow>(sql`SELECT ${view.cell} AS cell, ${raw(a.frameSamples)} AS c_samples,
        ${frameTailColumns(source)}, round(${raw(a.fps)}, 3) AS avg_fps
      FROM ${view.from}
     GROUP BY cell
    HAVING c_samples >= ${q.minSamples}
     ORDER BY p95_frame_time DESC, p99_frame_time DESC, c_samples DESC, cell
     LIMIT ${q.limit}`);
  if (ranked.length === 0) return [];
  const cells = ranked.map((r) => Number(r.cell));
  const mix =
    await clickhouse.rows<PlatformRow>(sql`SELECT ${cell} AS cell, platform, ${raw(a.frameSamples)} AS c_samples
      FROM ${from} AND ${cell} IN (${join(cells.map((c) => sql`${c}`))})
     GROUP BY cell, platform
    HAVING c_samples > 0
     ORDER BY cell, c_samples DESC, platform`);
  const nx = cellsAlong(q.bounds.worldMinX, q.bounds.worldMaxX, q.cellSize);
  return ranked.map((r) => {
    const key = Number(r.cell);
    return {
      x: cellCentre(key % nx, q.bounds.worldMinX, q.cellSize),
      y: cellCentre(Math.floor(key / nx), q.bounds.worldMinY, q.cellSize),
      samples: Number(r.c_samples),
      p95_frame_time: r.p95_frame_time,
      p99_frame_time: r.p99_frame_time,
      hitch_share_33ms: r.hitch_share_33ms,
      hitch_share_50ms: r.hitch_share_50ms,
      avg_fps: r.avg_fps,
      platforms: mix
        .filter((p) => Number(p.cell) === key)
        .map((p) => ({ platform: p.platform, samples: Number(p.c_samples) })),
    };
  });
}
