import {
  identifier,
  join,
  literal,
  raw,
  sql,
  type ClickHouseReader,
  type ServerEngine,
  type SqlFragment,
} from '@framedeck/clickhouse';
import { boundedGrouping } from './grouping-settings.js';
import { CELL_AGGREGATES } from './cell-aggregates.js';
import { dimensionConditions, hasDimensionFilter, type DimensionFilter } from './dimension-filter.js';
import type { HeatmapCell, MapBounds } from './heatmap.schema.js';
import type { QuerySource } from './query-source.js';
import { firstWholeWeek, lastDays, projectAndDays, projectAndWindow } from './time-window.js';

/** Allowed values, defaults: the spec's heatmap parameter table. */
export const HEATMAP_CELL_SIZES = [5, 10, 25, 50] as const;
export const HEATMAP_DAYS = [1, 7, 14, 30] as const;
export const HEATMAP_DEFAULTS = { cellSize: 25, days: 7 } as const;

/** 1 MB in avg_memory is 2^20 bytes (a MiB), as engines and profilers report memory. */
export const BYTES_PER_MB = 1_048_576;

/**
 * A heatmap's events. The dimension filter (platform, build, source) keeps only those events,
 * e.g. to see whether a new build fixed a slow area, or a map's cells on one platform.
 */
export type HeatmapQuery = {
  projectId: string;
  mapId: string;
  bounds: MapBounds;
  cellSize: number;
  days: number;
  /** Events mode when given; Performance mode (every event carrying a frame sample) when absent. */
  eventName?: string | undefined;
  /** Each cell's height range too (z, z_min, z_max): what the game SDKs' editor overlays draw in 3D. */
  includeZ?: boolean | undefined;
  /** Z slice (one floor of a multi-floor map): only events with position_z ≥ zMin and ≤ zMax. */
  zMin?: number | undefined;
  zMax?: number | undefined;
  now?: Date;
} & DimensionFilter;

/** Number of cells along one axis; a point on the max edge belongs to the last cell. */
export function cellsAlong(min: number, max: number, cellSize: number): number {
  return Math.max(1, Math.ceil((max - min) / cellSize));
}

/** The grid index of a coordinate, as the query computes it (exported for tests and the alert evaluator). */
export function cellIndex(value: number, min: number, max: number, cellSize: number): number {
  return Math.min(Math.floor((value - min) / cellSize), cellsAlong(min, max, cellSize) - 1);
}

export function cellCentre(index: number, min: number, cellSize: number): number {
  return min + (index + 0.5) * cellSize;
}

/** The grid index along one axis; positions are already filtered to min..max, so truncation is floor. */
function axisIndex(column: string, min: number, max: number, cellSize: number): SqlFragment {
  return sql`least(toUInt64((${identifier(column)} - ${min}) / ${cellSize}), ${cellsAlong(min, max, cellSize) - 1})`;
}

/**
 * One UInt64 per cell, cy × (cells along x) + cx: grouping on one integer is cheaper than on
 * two, and sorting by it orders cells by y, then x.
 */
function cellKey(q: HeatmapQuery): SqlFragment {
  const b = q.bounds;
  return sql`${axisIndex('position_y', b.worldMinY, b.worldMaxY, q.cellSize)} * ${cellsAlong(b.worldMinX, b.worldMaxX, q.cellSize)}
    + ${axisIndex('position_x', b.worldMinX, b.worldMaxX, q.cellSize)}`;
}

/**
 * Which events a heatmap reads: positioned events of the map, inside the map's world bounds
 * (points outside the image cannot be drawn), and
 *  - Events mode: events of that name;
 *  - Performance mode: events that carry a frame sample (fps or frame time above 0).
 *
 * The map and the event name go to PREWHERE: ClickHouse reads those two columns first and
 * the other ten only for granules holding a matching row. One name on one map is a thin
 * slice of each day's granules; measured on 10 M events (30 days, Events mode) 70 ms instead
 * of 95 ms, Performance mode unchanged.
 */
export function heatmapFilter(q: HeatmapQuery): { prewhere: SqlFragment; where: SqlFragment } {
  const b = q.bounds;
  const z =
    b.worldMinZ !== null && b.worldMaxZ !== null
      ? sql` AND position_z >= ${b.worldMinZ} AND position_z <= ${b.worldMaxZ}`
      : sql``;
  const name = q.eventName !== undefined ? sql` AND event_name = ${q.eventName}` : sql``;
  const frameSample = q.eventName !== undefined ? sql`` : sql` AND (fps > 0 OR frame_time_ms > 0)`;
  return {
    prewhere: sql`map_id = ${q.mapId}${name}`,
    where: sql`${projectAndWindow(q.projectId, lastDays(q.days, q.now))}${frameSample}${dimensionConditions(q)}
    AND has_position = 1
    AND position_x >= ${b.worldMinX} AND position_x <= ${b.worldMaxX}
    AND position_y >= ${b.worldMinY} AND position_y <= ${b.worldMaxY}${z}${zSlice(q)}`,
  };
}

/** The z slice's conditions (either bound may be absent). */
function zSlice(q: Pick<HeatmapQuery, 'zMin' | 'zMax'>): SqlFragment {
  const from = q.zMin !== undefined ? sql` AND position_z >= ${q.zMin}` : sql``;
  const to = q.zMax !== undefined ? sql` AND position_z <= ${q.zMax}` : sql``;
  return sql`${from}${to}`;
}

export function hasZSlice(q: Pick<HeatmapQuery, 'zMin' | 'zMax'>): boolean {
  return q.zMin !== undefined || q.zMax !== undefined;
}

/**
 * Heatmap cells of one map, from the cell rollup when the map's grid lines up with the
 * rollup's (see servedByRollup), else from the events.
 */
export async function queryHeatmap(
  clickhouse: ClickHouseReader,
  q: HeatmapQuery,
  source: QuerySource = 'rollups',
): Promise<HeatmapCell[]> {
  return JSON.parse((await heatmapJson(clickhouse, q, source)).toString('utf8')) as HeatmapCell[];
}

/**
 * The same cells as a JSON array, bytes ready to send: ClickHouse writes each cell whole but
 * for its weight, which needs the largest cell value (withWeights fills it in). Parsing 10,000
 * to 40,000 cells into objects and serialising them again cost the API ~30 to 130–170 ms
 * (docs/performance.md, sixteenth run). A large heatmap read from the rollups is counted in bands
 * of its rows at once (rowBands); each band's cells come ordered, the bands in row order.
 */
export async function heatmapJson(
  clickhouse: ClickHouseReader,
  q: HeatmapQuery,
  source: QuerySource = 'rollups',
): Promise<Buffer> {
  const from = heatmapSource(q, source);
  // Only a large grid asks the server how to share it (the probe is asked once per reader).
  const banded = from === 'rollups' && largeGrid(q);
  const bands = banded ? rowBands(q, (await clickhouse.engine()).heatmapSlices) : [WHOLE_GRID];
  const parts = await Promise.all(bands.map((band) => clickhouse.jsonLines(heatmapCellsSql(q, from, band))));
  return withWeights(Buffer.concat(parts), q.eventName === undefined ? 'frameTime' : 'count');
}

/**
 * A band of a heatmap's rows (its cells' y index): from `from`, below `below` (to the last row
 * when absent), counted on `threads` threads (the server's default when absent).
 */
export type RowBand = { from: number; below?: number; threads?: number };
const WHOLE_GRID: RowBand = { from: 0 };
const isWholeGrid = (band: RowBand) => band.from === 0 && band.below === undefined;

/**
 * Heatmaps of at least this many cells are counted in bands (ServerEngine.heatmapSlices): on
 * the bench's map a 10-unit heatmap (10,000 cells) gained 11–13 ms on 18.16 and a 5-unit one
 * (40,000) 170; a 25-unit one (1,600) gained nothing, its bands' second query costing what they
 * saved (docs/performance.md, twenty-eighth run).
 */
export const BANDED_HEATMAP_CELLS = 10_000;

/** Whether the heatmap's grid has BANDED_HEATMAP_CELLS cells or more. */
function largeGrid(q: Pick<HeatmapQuery, 'bounds' | 'cellSize'>): boolean {
  const b = q.bounds;
  return (
    cellsAlong(b.worldMinY, b.worldMaxY, q.cellSize) * cellsAlong(b.worldMinX, b.worldMaxX, q.cellSize) >=
    BANDED_HEATMAP_CELLS
  );
}

/**
 * A grid's rows as `slices.count` adjoining bands of about equal rows (at most one a row; the
 * whole grid when that leaves fewer than two). heatmapJson bands only large grids (largeGrid).
 */
export function rowBands(
  q: Pick<HeatmapQuery, 'bounds' | 'cellSize'>,
  slices: ServerEngine['heatmapSlices'],
): RowBand[] {
  const rows = cellsAlong(q.bounds.worldMinY, q.bounds.worldMaxY, q.cellSize);
  const count = Math.min(slices.count, rows);
  if (count < 2) return [WHOLE_GRID];
  const threads = slices.threadsEach !== undefined ? { threads: slices.threadsEach } : {};
  const edge = (i: number) => Math.round((i * rows) / count);
  return Array.from({ length: count }, (_, i) => ({
    from: edge(i),
    ...(i < count - 1 ? { below: edge(i + 1) } : {}),
    ...threads,
  }));
}

/**
 * What answers a heatmap-shaped query: the rollup when asked, the map lines up with it
 * (servedByRollup) and no z slice is asked (the rollup keeps each cell's z range, not each
 * event's z); else the events.
 */
export function heatmapSource(q: Pick<HeatmapQuery, 'bounds' | 'zMin' | 'zMax'>, wanted: QuerySource): QuerySource {
  return wanted === 'rollups' && servedByRollup(q.bounds) && !hasZSlice(q) ? 'rollups' : 'events';
}

/**
 * The grid of a heatmap over one source: the expression of each row's cell (cy × cells
 * along x + cx) and everything after FROM (the table, or for the overview a subquery of its
 * daily and weekly rows, then a WHERE clause), to which callers may append `AND …`. The builds
 * comparison groups the same cells by build and platform.
 */
export function cellSelection(
  q: HeatmapQuery,
  source: QuerySource,
  options: { byDimension?: boolean; band?: RowBand } = {},
): { cell: SqlFragment; from: SqlFragment } {
  const b = q.bounds;
  if (source === 'events') {
    if (options.band && !isWholeGrid(options.band)) throw new Error('a band of rows is read from the rollups only');
    const filter = heatmapFilter(q);
    return { cell: cellKey(q), from: sql`events PREWHERE ${filter.prewhere} WHERE ${filter.where}` };
  }
  const grid = rollupGrid(q, { byDimension: options.byDimension === true || hasDimensionFilter(q) });
  const x = rollupAxis('x', b.worldMinX, b.worldMaxX, q.cellSize, grid.size);
  const y = rollupAxis('y', b.worldMinY, b.worldMaxY, q.cellSize, grid.size);
  const cell = sql`${y.index} * ${cellsAlong(b.worldMinX, b.worldMaxX, q.cellSize)} + ${x.index}`;
  const window = lastDays(q.days, q.now);
  if (isOverview(grid)) {
    // The overview marks its Performance rows with the name '' and its Events rows with has_sample 0.
    const mode =
      q.eventName !== undefined
        ? sql`event_name = ${q.eventName} AND has_sample = 0`
        : sql`has_sample = 1 AND event_name = ''`;
    const band = bandCondition(options.band, q, grid.size, `cell_y${grid.cellColumnsSuffix ?? ''}`);
    const rows = sql`map_id = ${q.mapId} AND ${mode}${band}`;
    const monday = firstWholeWeek(window);
    const columns = overviewColumns(grid);
    return {
      cell,
      from: sql`(SELECT ${columns} FROM ${identifier(grid.table)}
                  WHERE ${projectAndDays(q.projectId, window)} AND day < toDate(${monday}) AND ${rows}
                 UNION ALL
                 SELECT ${columns} FROM ${identifier(grid.weeklyTable)}
                  WHERE ${projectAndDays(q.projectId, { from: monday })} AND ${rows})
        WHERE ${x.inside} AND ${y.inside}`,
    };
  }
  const mode = q.eventName !== undefined ? sql`event_name = ${q.eventName}` : sql`has_sample = 1`;
  return {
    cell,
    from: sql`${identifier(grid.table)}
        WHERE ${projectAndDays(q.projectId, window)} AND map_id = ${q.mapId} AND ${mode}${dimensionConditions(q)}${bandCondition(options.band, q, grid.size, 'cell_y')}
          AND ${x.inside} AND ${y.inside}`,
  };
}

/**
 * ` AND …` keeping the rollup rows of a band of the heatmap's rows, on the grid's own y column
 * (a range of the sorting key after the day: the server skips the other rows' granules); nothing
 * for the whole grid. Heatmap row r holds the grid cells whose y·grid − minY lies in
 * [r·cellSize, (r + 1)·cellSize) (rollupAxis), and bounds and cell size are multiples of the grid:
 * the band's edges are whole grid cells. The last band is open: it keeps the edge cell that
 * rollupAxis puts in the last row.
 */
function bandCondition(band: RowBand | undefined, q: HeatmapQuery, gridSize: number, column: string): SqlFragment {
  if (band === undefined) return sql``;
  const cell = (row: number) => (q.bounds.worldMinY + row * q.cellSize) / gridSize;
  const from = band.from > 0 ? sql` AND ${identifier(column)} >= ${cell(band.from)}` : sql``;
  return band.below === undefined ? from : sql`${from} AND ${identifier(column)} < ${cell(band.below)}`;
}

/**
 * The cell rollups (clickhouse/007), finest first: heatmap cells of 5, 10, 25 and 50 units are
 * sums of 5-unit cells; of 25 and 50 units, of 25-unit cells (25 times fewer rows to read).
 */
export const ROLLUP_GRIDS = [
  { size: 5, table: 'rollup_heatmap_cells' },
  { size: 25, table: 'rollup_heatmap_cells_25' },
] as const;
export const ROLLUP_CELL_SIZE = ROLLUP_GRIDS[0].size;

const onGrid = (b: MapBounds, size: number) =>
  [b.worldMinX, b.worldMinY, b.worldMaxX, b.worldMaxY].every((v) => Number.isInteger(v / size));

/**
 * Whether a rollup answers exactly what the events would: the map's bounds lie on the
 * 5-unit grid (every heatmap cell size is a multiple of 5, so each heatmap cell is then a
 * whole number of rollup cells) and the map has no height range (the rollup keeps each
 * cell's z range, not every event's z). Otherwise the events answer.
 */
export function servedByRollup(b: MapBounds): boolean {
  return onGrid(b, ROLLUP_CELL_SIZE) && b.worldMinZ === null;
}

/**
 * Unfiltered heatmaps (not split by build, platform or source) read an overview: one row per map,
 * day, cell and mode, without builds, platforms or sources, and the same per Monday-based week
 * (clickhouse/026, 030, 031). A range's whole weeks are read from the weekly rows, the days before
 * its first Monday from the daily ones: a day's frame-time histogram holds more buckets as volume
 * grows, a week's gathers seven days' in fewer entries. Finest first, each with the tables of its
 * modes:
 *  - 5 units, for 5- and 10-unit heatmaps: Performance rows (030) and Events rows (031) in tables
 *    of their own, each sorted for its mode's reads and its views' writes;
 *  - 10 units, Events mode only (033), for 10-unit Events heatmaps: their 30-day default range
 *    reads a quarter of the 5-unit rows once volume fills the grid (Performance mode's 7 days
 *    read at most 7 rows per 5-unit cell, and keep the 5-unit overview);
 *  - 25 units, for 25 and 50 units (the default views): both modes in one table (007).
 */
export const OVERVIEW_GRIDS: readonly OverviewGridModes[] = [
  {
    size: 5,
    performance: { table: 'rollup_heatmap_overview_5', weeklyTable: 'rollup_heatmap_overview_5_weekly' },
    events: { table: 'rollup_heatmap_overview_5_events', weeklyTable: 'rollup_heatmap_overview_5_events_weekly' },
  },
  {
    size: 10,
    events: {
      table: 'rollup_heatmap_overview_10_events',
      weeklyTable: 'rollup_heatmap_overview_10_events_weekly',
      cellColumnsSuffix: '_10',
    },
  },
  {
    size: 25,
    performance: { table: 'rollup_heatmap_overview_25', weeklyTable: 'rollup_heatmap_overview_25_weekly' },
    events: { table: 'rollup_heatmap_overview_25', weeklyTable: 'rollup_heatmap_overview_25_weekly' },
  },
];

type RollupGrid = { size: number; table: string };
/**
 * A mode's overview tables on one grid. `cellColumnsSuffix`: the cell columns are named for the
 * grid (`cell_y_10`, …, clickhouse/033 says why) and read as `cell_y`, ….
 */
type OverviewGrid = { size: number; table: string; weeklyTable: string; cellColumnsSuffix?: string };
type OverviewTables = Omit<OverviewGrid, 'size'>;
/** One grid's overviews: a mode without one there reads a finer grid's. */
type OverviewGridModes = { size: number; performance?: OverviewTables; events?: OverviewTables };

const isOverview = (grid: RollupGrid): grid is OverviewGrid => 'weeklyTable' in grid;

/** What an overview's rows are read as: every column, the cell's under the names rollupAxis reads. */
function overviewColumns(grid: OverviewGrid): SqlFragment {
  const suffix = grid.cellColumnsSuffix;
  if (suffix === undefined) return sql`*`;
  const renamed = ['cell_y', 'cell_x', 'y_on_grid', 'x_on_grid'].map(
    (name) => sql`${identifier(`${name}${suffix}`)} AS ${identifier(name)}`,
  );
  return sql`*, ${join(renamed)}`;
}

/**
 * The rollup to read: the coarsest grid whose cells tile the heatmap's, among the overviews (the
 * tables of the heatmap's mode) when the view is not split by build, platform or source
 * (`byDimension`), else among the full rollups (ROLLUP_GRIDS).
 */
export function rollupGrid(
  q: Pick<HeatmapQuery, 'bounds' | 'cellSize' | 'eventName'>,
  options: { byDimension: boolean },
): RollupGrid {
  const fits = (g: { size: number }) => q.cellSize % g.size === 0 && onGrid(q.bounds, g.size);
  const mode = q.eventName === undefined ? 'performance' : 'events';
  const overview = options.byDimension ? undefined : OVERVIEW_GRIDS.filter(fits).findLast((g) => g[mode] !== undefined);
  const tables = overview?.[mode];
  if (overview && tables) return { size: overview.size, ...tables };
  return ROLLUP_GRIDS.filter(fits).at(-1) ?? ROLLUP_GRIDS[0];
}

/**
 * The heatmap cell of a rollup cell along one axis. A rollup cell starting on the max edge
 * holds points on that edge (which belong to the last cell, as in the events query) and
 * points past it (which belong to none): `on_grid` tells them apart.
 */
function rollupAxis(
  axis: 'x' | 'y',
  min: number,
  max: number,
  cellSize: number,
  gridSize: number,
): { index: SqlFragment; inside: SqlFragment } {
  const cell = identifier(`cell_${axis}`);
  const onGrid = identifier(`${axis}_on_grid`);
  const first = min / gridSize;
  const edge = max / gridSize;
  return {
    index: sql`least(intDiv(${cell} * ${gridSize} - ${min}, ${cellSize}), ${cellsAlong(min, max, cellSize) - 1})`,
    inside: sql`${cell} >= ${first} AND (${cell} < ${edge} OR (${cell} = ${edge} AND ${onGrid} = 1))`,
  };
}

/**
 * The heatmap's cells (HeatmapCell, ordered by y, then x) over either source (CELL_AGGREGATES),
 * one JSON line each as ClickHouse writes it: centres, the 0 of an average without samples
 * (ClickHouse writes their NaN as null), with includeZ the height range and its middle. Each line
 * starts `{"weight":<avg_frame_time>,"event_count":<n>,`: the weight's inputs, in the place and
 * order withWeights reads them. The query stays flat: on 18.16 each level of subquery costs
 * ~4 ms of analysis per request, more than the per-cell work it would take from withWeights.
 * The plain query reads the events table without FINAL: duplicates exist only between a Kafka
 * redelivery and the next background merge (rare, and bounded to a batch), while FINAL would
 * make every heatmap several times slower.
 * Averages are rounded to 0.001 (fps, ms, MB) here: 17 significant digits of noise per value
 * cost ~10 ms of formatting and parsing on a 10,000-cell map, and a third of the bytes.
 * `band`: only the cells of those rows (rollups only, rowBands), on the band's threads.
 */
export function heatmapCellsSql(q: HeatmapQuery, source: QuerySource, band: RowBand = WHOLE_GRID): SqlFragment {
  const { cell, from } = cellSelection(q, source, { band });
  const a = CELL_AGGREGATES[source];
  const b = q.bounds;
  const nx = cellsAlong(b.worldMinX, b.worldMaxX, q.cellSize);
  const zeroWhenNone = (average: string) => `if(isNaN(round(${average}, 3)), 0, round(${average}, 3))`;
  // cellCentre's formula, in the same order of operations (the same doubles). Unsigned: the
  // rollups' cell key is an Int64, and ClickHouse types a signed value modulo an unsigned one
  // like a signed divisor (Int8 for nx = 200): an x index past 127 would wrap.
  const centre = (index: string, min: number) => `${literal(min)} + (${index} + 0.5) * ${q.cellSize}`;
  // z: the middle of the heights as written (Float32's shortest decimal), as a client computes it.
  const heights = q.includeZ
    ? `,\n(toFloat64(toString(z_min)) + toFloat64(toString(z_max))) / 2 AS z, ${a.zMin} AS z_min, ${a.zMax} AS z_max`
    : '';
  return sql`SELECT ${raw(zeroWhenNone(a.frameTimeMean))} AS weight,
              ${raw(a.events)} AS event_count,
              ${raw(centre(`toUInt64(cell) % ${nx}`, b.worldMinX))} AS x,
              ${raw(centre(`intDiv(toUInt64(cell), ${nx})`, b.worldMinY))} AS y,
              ${raw(zeroWhenNone(a.fps))} AS avg_fps,
              ${raw(zeroWhenNone(a.frameTimeMean))} AS avg_frame_time,
              ${raw(zeroWhenNone(`${a.memoryBytes} / ${BYTES_PER_MB}`))} AS avg_memory,
              round(${raw(a.gpuTime)}, 3) AS avg_gpu_time,
              ${frameTailColumns(source)}${raw(heights)}
         FROM ${from}
        GROUP BY ${cell} AS cell
        ORDER BY cell
        ${boundedGrouping(band.threads)}`;
}

const ROW_START = '{"weight":';
const COUNT_KEY = '"event_count":';

/** A row's first bytes: its weight and event_count fields, read as a short string. */
const ROW_HEAD_BYTES = 96;
const NEWLINE = 0x0a;

/**
 * The cells' JSON array with each weight filled in (0..1): avg_frame_time / the largest in
 * Performance mode (hot = slow) unless no cell has a frame time, else event_count / the
 * largest. `lines` are heatmapCellsSql's, whose weight holds the cell's avg_frame_time; only
 * that number and event_count are read from each line's first bytes, the rest is copied byte for
 * byte. No string of the whole answer is made: V8 keeps a string over ~128 KB in its old
 * generation, and one per request (350 KB for a 25-unit map, 9 MB for a 5-unit one) kept a full
 * collection running on the API's thread every few requests (docs/performance.md, thirty-first run).
 */
export function withWeights(lines: Buffer, by: 'frameTime' | 'count'): Buffer {
  const rows: { end: number; afterWeight: number; frameTime: number; count: number }[] = [];
  let topFrameTime = 0;
  let topCount = 0;
  for (let start = 0; start < lines.length;) {
    const end = lines.indexOf(NEWLINE, start);
    const head = lines.toString('latin1', start, Math.min(end === -1 ? lines.length : end, start + ROW_HEAD_BYTES));
    const weightEnd = head.indexOf(',');
    const countAt = weightEnd + 1 + COUNT_KEY.length;
    const countEnd = head.indexOf(',', countAt);
    const frameTime = Number(head.slice(ROW_START.length, weightEnd));
    const count = Number(head.slice(countAt, countEnd));
    const wellFormed = head.startsWith(ROW_START) && head.startsWith(COUNT_KEY, weightEnd + 1) && countEnd !== -1;
    if (!wellFormed || end === -1 || !Number.isFinite(frameTime) || !Number.isFinite(count)) {
      throw new Error(`not a heatmap row (weight and count first): ${head.slice(0, 80)}`);
    }
    rows.push({ end, afterWeight: start + weightEnd, frameTime, count });
    topFrameTime = Math.max(topFrameTime, frameTime);
    topCount = Math.max(topCount, count);
    start = end + 1;
  }
  const byFrameTime = by === 'frameTime' && topFrameTime > 0;
  const weightOf = (r: (typeof rows)[number]) =>
    byFrameTime ? r.frameTime / topFrameTime : topCount > 0 ? r.count / topCount : 0;
  // Written into one buffer: each row's weight, then its bytes after the weight, copied.
  const weights = rows.map((r) => `${ROW_START}${weightOf(r)}`);
  const commas = Math.max(rows.length - 1, 0);
  const size = rows.reduce((n, r, i) => n + weights[i]!.length + (r.end - r.afterWeight), '[]'.length + commas);
  const out = Buffer.allocUnsafe(size);
  let at = out.write('[', 0, 'latin1');
  rows.forEach((r, i) => {
    if (i > 0) at += out.write(',', at, 'latin1');
    at += out.write(weights[i]!, at, 'latin1');
    at += lines.copy(out, at, r.afterWeight, r.end);
  });
  out.write(']', at, 'latin1');
  return out;
}

/**
 * p95_frame_time, p99_frame_time, hitch_share_33ms and hitch_share_50ms of a group of frame
 * samples (frame time above 0), null without any: the tail columns heatmap cells and worst
 * areas share. Quantiles come from the log-bucket histogram (log-histogram.ts: within 2 % of
 * the nearest-rank value); a hitch share is the frames over the threshold / the frame samples.
 */
export function frameTailColumns(source: QuerySource): SqlFragment {
  const a = CELL_AGGREGATES[source];
  const whenSampled = (value: string) => `if(${a.frameSamples} = 0, NULL, ${value})`;
  return raw(
    [
      `${whenSampled(`${a.frameTimeQuantiles}[2]`)} AS p95_frame_time`,
      `${whenSampled(`${a.frameTimeQuantiles}[3]`)} AS p99_frame_time`,
      `${whenSampled(`${a.hitches33} / ${a.frameSamples}`)} AS hitch_share_33ms`,
      `${whenSampled(`${a.hitches50} / ${a.frameSamples}`)} AS hitch_share_50ms`,
    ].join(',\n'),
  );
}
