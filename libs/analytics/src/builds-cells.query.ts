import { raw, sql, type ClickHouseReader, type SqlFragment } from '@framedeck/clickhouse';
import { CELL_AGGREGATES } from './cell-aggregates.js';
import {
  criticalZ,
  designEffect,
  testCell,
  type CellTest,
  type CellTestRule,
  type SessionGroupSums,
  type StratumStats,
} from './cell-regression.js';
import {
  BYTES_PER_MB,
  cellCentre,
  cellSelection,
  cellsAlong,
  heatmapSource,
  type HeatmapQuery,
} from './heatmap.query.js';
import type { QuerySource } from './query-source.js';

/**
 * The spatial build comparison: per heatmap cell of one map, each build's frame-time tails and
 * averages, and a verdict from the stratified test of cell-regression.ts. Read from the cell
 * rollup (clickhouse/014: counts, sums, sums of squares and frame-time histograms per cell,
 * build and platform) when the map lines up with it, else from the events.
 */

export type BuildCellsQuery = Pick<
  HeatmapQuery,
  'projectId' | 'mapId' | 'bounds' | 'cellSize' | 'days' | 'now' | 'platform' | 'source'
> & {
  base: string;
  target: string;
} & CellTestRule;

/** One build's frame statistics in one cell; numbers are null without frame samples. */
export type BuildCellSide = {
  samples: number;
  p50FrameTime: number | null;
  p95FrameTime: number | null;
  p99FrameTime: number | null;
  avgFrameTime: number | null;
  avgFps: number | null;
  avgMemory: number | null;
  avgGpuTime: number | null;
  avgGameThread: number | null;
  avgRenderThread: number | null;
  /** Share of frame samples over 33.3 ms and over 50 ms. */
  hitchShare33: number | null;
  hitchShare50: number | null;
};

export type BuildCell = { x: number; y: number; base: BuildCellSide; target: BuildCellSide } & CellTest;

export type BuildRegression = {
  x: number;
  y: number;
  deltaMs: number;
  deltaPercent: number | null;
  targetSamples: number;
  /** target frame samples × deltaMs: extra milliseconds players spent there, the ranking key. */
  impact: number;
};

export type BuildCellsComparison = {
  cells: BuildCell[];
  regressions: BuildRegression[];
  /** Cells with enough samples to test, and the |z| each had to exceed (Bonferroni over them). */
  testedCells: number;
  criticalZ: number;
  source: QuerySource;
  /** Per platform: how much a session's samples in a cell inflate the variance (cell-regression.ts). */
  designEffects: Record<string, number>;
};

/**
 * Frame samples read to estimate the design effects: the first this many of the compared
 * builds' samples on the map, so the estimate costs the same whatever the volume.
 */
export const DESIGN_EFFECT_SAMPLE_ROWS = 500_000;

/** Column aliases carry a c_ prefix: an alias named like a column (fps) would replace it in WHERE. */
type StratumRow = {
  cell: number;
  build_id: string;
  platform: string;
  c_n: number;
  c_mean: number | null;
  c_variance: number | null;
};
type SideRow = { cell: number; build_id: string; c_n: number; c_q: number[]; c_h33: number; c_h50: number } & Record<
  'c_mean' | 'c_fps' | 'c_memory' | 'c_gpu' | 'c_game' | 'c_render',
  number | null
>;

export async function compareBuildCells(
  clickhouse: ClickHouseReader,
  q: BuildCellsQuery,
  wanted: QuerySource = 'rollups',
): Promise<BuildCellsComparison> {
  // Both builds' cells, with the platform and source filters (cellSelection applies them).
  const heatmap: HeatmapQuery = { ...q, eventName: undefined, buildId: undefined };
  const source = heatmapSource(heatmap, wanted);
  const { cell, from } = cellSelection(heatmap, source, { byDimension: true });
  const a = CELL_AGGREGATES[source];
  const rows: SqlFragment = sql`FROM ${from} AND build_id IN (${q.base}, ${q.target})`;
  const [strata, sides, groupSums] = await Promise.all([
    clickhouse.rows<StratumRow>(sql`SELECT ${cell} AS cell, build_id, platform,
        ${raw(a.frameSamples)} AS c_n, ${raw(a.frameTimeMean)} AS c_mean, ${raw(a.frameTimeVariance)} AS c_variance
      ${rows} GROUP BY cell, build_id, platform`),
    clickhouse.rows<SideRow>(sql`SELECT ${cell} AS cell, build_id, ${raw(a.frameSamples)} AS c_n,
        ${raw(a.frameTimeQuantiles)} AS c_q, ${raw(a.frameTimeMean)} AS c_mean, ${raw(a.fps)} AS c_fps,
        ${raw(a.memoryBytes)} AS c_memory, ${raw(a.gpuTime)} AS c_gpu, ${raw(a.gameThread)} AS c_game,
        ${raw(a.renderThread)} AS c_render, ${raw(a.hitches33)} AS c_h33, ${raw(a.hitches50)} AS c_h50
      ${rows} GROUP BY cell, build_id ORDER BY cell`),
    sessionGroupSums(clickhouse, heatmap, q),
  ]);
  const designEffects = new Map(groupSums.map((r) => [r.platform, designEffect(toGroupSums(r))]));
  return judgeCells(strata, sides, q, source, designEffects);
}

type GroupSumsRow = { platform: string } & Record<
  'frames' | 'groups' | 'cells' | 'within_squares' | 'between_squares' | 'size_squares_over_cell' | 'size_squares',
  number
>;

const toGroupSums = (r: GroupSumsRow): SessionGroupSums => ({
  frames: Number(r.frames),
  groups: Number(r.groups),
  cells: Number(r.cells),
  withinSquares: Number(r.within_squares),
  betweenSquares: Number(r.between_squares),
  sizeSquaresOverCellFrames: Number(r.size_squares_over_cell),
  sizeSquares: Number(r.size_squares),
});

/**
 * Per platform, the ANOVA sums of frame time over (cell, build, session) groups that the
 * design effect is estimated from (SessionGroupSums), over a bounded sample of the compared
 * builds' raw frame samples: the rollups keep no sessions. Sums of squares are taken per group
 * as Σx² − (Σx)²/n and per cell as Σ (Σx)²/n − (Σ_cell x)²/N (no window functions on 18.16).
 */
async function sessionGroupSums(
  clickhouse: ClickHouseReader,
  heatmap: HeatmapQuery,
  q: BuildCellsQuery,
): Promise<GroupSumsRow[]> {
  const { cell, from } = cellSelection(heatmap, 'events');
  return clickhouse.rows<GroupSumsRow>(sql`SELECT platform,
        sum(cell_frames) AS frames, sum(length(ns)) AS groups, count() AS cells,
        sum(arraySum(arrayMap((n, s, ss) -> ss - s * s / n, ns, sums, squares))) AS within_squares,
        sum(arraySum(arrayMap((n, s) -> s * s / n, ns, sums)) - cell_sum * cell_sum / cell_frames) AS between_squares,
        sum(arraySum(arrayMap(n -> n * n, ns)) / cell_frames) AS size_squares_over_cell,
        sum(arraySum(arrayMap(n -> n * n, ns))) AS size_squares
      FROM (
        SELECT platform, groupArray(n) AS ns, groupArray(s) AS sums, groupArray(ss) AS squares,
               sum(n) AS cell_frames, sum(s) AS cell_sum
          FROM (
            SELECT platform, cell, build_id, session_id, count() AS n,
                   sum(toFloat64(frame_time_ms)) AS s, sum(toFloat64(frame_time_ms) * frame_time_ms) AS ss
              FROM (
                SELECT platform, ${cell} AS cell, build_id, session_id, frame_time_ms
                  FROM ${from} AND build_id IN (${q.base}, ${q.target}) AND frame_time_ms > 0
                 LIMIT ${DESIGN_EFFECT_SAMPLE_ROWS}
              )
             GROUP BY platform, cell, build_id, session_id
          )
         GROUP BY platform, cell, build_id
      )
      GROUP BY platform`);
}

const EMPTY_SIDE: BuildCellSide = {
  samples: 0,
  p50FrameTime: null,
  p95FrameTime: null,
  p99FrameTime: null,
  avgFrameTime: null,
  avgFps: null,
  avgMemory: null,
  avgGpuTime: null,
  avgGameThread: null,
  avgRenderThread: null,
  hitchShare33: null,
  hitchShare50: null,
};

/** NaN (an average over nothing) as null, else rounded to 0.001. */
const value = (v: number | null | undefined) =>
  v === null || v === undefined || Number.isNaN(v) ? null : Math.round(v * 1000) / 1000;

function toSide(row: SideRow | undefined): BuildCellSide {
  if (!row || Number(row.c_n) === 0) return EMPTY_SIDE;
  const n = Number(row.c_n);
  return {
    samples: n,
    p50FrameTime: row.c_q[0]!,
    p95FrameTime: row.c_q[1]!,
    p99FrameTime: row.c_q[2]!,
    avgFrameTime: value(row.c_mean),
    avgFps: value(row.c_fps),
    avgMemory: value(row.c_memory === null ? null : row.c_memory / BYTES_PER_MB),
    avgGpuTime: value(row.c_gpu),
    avgGameThread: value(row.c_game),
    avgRenderThread: value(row.c_render),
    hitchShare33: Number(row.c_h33) / n,
    hitchShare50: Number(row.c_h50) / n,
  };
}

/** Verdicts (Bonferroni over the testable cells), centres and the ranked regressions. */
function judgeCells(
  strata: readonly StratumRow[],
  sides: readonly SideRow[],
  q: BuildCellsQuery,
  source: QuerySource,
  designEffects: ReadonlyMap<string, number>,
): BuildCellsComparison {
  const byCell = new Map<number, { base: Map<string, StratumStats>; target: Map<string, StratumStats> }>();
  for (const r of strata) {
    const cell = Number(r.cell);
    const entry = byCell.get(cell) ?? { base: new Map(), target: new Map() };
    byCell.set(cell, entry);
    if (Number(r.c_n) === 0 || r.c_mean === null) continue;
    const stats = { samples: Number(r.c_n), mean: Number(r.c_mean), variance: Number(r.c_variance ?? 0) };
    (r.build_id === q.base ? entry.base : entry.target).set(r.platform, stats);
  }
  const testable = [...byCell.values()].filter(({ base, target }) =>
    [...base].some(([p, s]) => s.samples >= q.minSamples && (target.get(p)?.samples ?? 0) >= q.minSamples),
  ).length;
  const zCritical = criticalZ(q.confidence, testable);
  const nx = cellsAlong(q.bounds.worldMinX, q.bounds.worldMaxX, q.cellSize);
  // One lookup per cell and build (a scan of every side per cell grew with cells²: 1,600 cells, 2.5 M comparisons).
  const sideRows = new Map(sides.map((s) => [`${Number(s.cell)}:${s.build_id}`, s]));
  const cells: BuildCell[] = [...byCell.keys()]
    .sort((x, y) => x - y)
    .map((cell) => {
      const { base, target } = byCell.get(cell)!;
      const side = (build: string) => toSide(sideRows.get(`${cell}:${build}`));
      return {
        x: cellCentre(cell % nx, q.bounds.worldMinX, q.cellSize),
        y: cellCentre(Math.floor(cell / nx), q.bounds.worldMinY, q.cellSize),
        ...testCell(base, target, q, zCritical, designEffects),
        base: side(q.base),
        target: side(q.target),
      };
    });
  const regressions = cells
    .filter((c) => c.verdict === 'worse')
    .map((c) => ({
      x: c.x,
      y: c.y,
      deltaMs: c.deltaMs!,
      deltaPercent: c.deltaPercent,
      targetSamples: c.target.samples,
      impact: c.target.samples * c.deltaMs!,
    }))
    .sort((a, b) => b.impact - a.impact);
  return {
    cells,
    regressions,
    testedCells: testable,
    criticalZ: zCritical,
    source,
    designEffects: Object.fromEntries(designEffects),
  };
}
