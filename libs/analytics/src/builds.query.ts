import { raw, sql, type ClickHouseReader, type SqlFragment } from '@framedeck/clickhouse';
import { BYTES_PER_MB } from './heatmap.query.js';
import type { QuerySource } from './query-source.js';
import { lastDays, projectAndDays, projectAndWindow } from './time-window.js';
import { compareStats, type MetricComparison, type MetricStats } from './builds.verdict.js';

export const BUILDS_DAYS = [7, 14, 30, 90] as const;
export const BUILDS_DEFAULTS = { days: 30, limit: 50 } as const;

/** An event carries performance data when it has a frame sample. */
const HAS_SAMPLE = raw('(fps > 0 OR frame_time_ms > 0)');

export type BuildSummary = {
  buildId: string;
  events: number;
  /** Events carrying a frame sample. */
  samples: number;
  platforms: string[];
  maps: number;
  firstSeen: string;
  lastSeen: string;
};

export type BuildsQuery = {
  projectId: string;
  days: number;
  limit: number;
  /** Only this build (a CI job polling for its own build, whatever the limit). */
  buildId?: string | undefined;
  now?: Date;
};

/**
 * Build ids that have performance data in the range, most recently seen first: from
 * rollup_build_stats (clickhouse/007, one row per day, build, map, platform and source), or
 * the plain query over events it is tested against.
 */
export async function queryBuilds(
  clickhouse: ClickHouseReader,
  q: BuildsQuery,
  source: QuerySource = 'rollups',
): Promise<BuildSummary[]> {
  const window = lastDays(q.days, q.now);
  const only = q.buildId === undefined ? sql`` : sql` AND build_id = ${q.buildId}`;
  const stats =
    source === 'rollups'
      ? sql`countMerge(events) AS events, countIfMerge(samples) AS samples,
               arraySort(groupUniqArray(platform)) AS platforms, uniqExact(map_id) AS maps,
               minMerge(first_seen) AS first, maxMerge(last_seen) AS last
          FROM rollup_build_stats
         WHERE ${projectAndDays(q.projectId, window)}`
      : sql`count() AS events, countIf(${HAS_SAMPLE}) AS samples,
               arraySort(groupUniqArray(platform)) AS platforms, uniqExact(map_id) AS maps,
               min(timestamp) AS first, max(timestamp) AS last
          FROM events
         WHERE ${projectAndWindow(q.projectId, window)}`;
  const rows = await clickhouse.rows<BuildSummary>(sql`SELECT build_id AS buildId, events, samples, platforms, maps,
               formatDateTime(first, '%FT%TZ', 'UTC') AS firstSeen, formatDateTime(last, '%FT%TZ', 'UTC') AS lastSeen
          FROM (SELECT build_id, ${stats} AND build_id != ''${only} GROUP BY build_id)
         WHERE samples > 0
         ORDER BY last DESC, build_id
         LIMIT ${q.limit}`);
  return rows.map((r) => ({ ...r, platforms: r.platforms.filter((p) => p !== '') }));
}

/**
 * The compared metrics: the column, how it is scaled, and which direction is an improvement.
 * A value of 0 means "not collected" for every one of them, so only values above 0 are samples.
 */
export const BUILD_METRICS = {
  fps: { column: 'fps', scale: 1, higherIsBetter: true },
  frame_time: { column: 'frame_time_ms', scale: 1, higherIsBetter: false },
  memory: { column: 'memory_used_bytes', scale: 1 / BYTES_PER_MB, higherIsBetter: false },
  gpu_time: { column: 'gpu_time_ms', scale: 1, higherIsBetter: false },
  game_thread: { column: 'game_thread_ms', scale: 1, higherIsBetter: false },
  render_thread: { column: 'render_thread_ms', scale: 1, higherIsBetter: false },
} as const;
export type BuildMetric = keyof typeof BUILD_METRICS;
const METRIC_NAMES = Object.keys(BUILD_METRICS) as BuildMetric[];

export type BuildsCompareQuery = {
  projectId: string;
  base: string;
  target: string;
  days: number;
  /** Relative change of the mean, in percent, below which a metric is "unchanged". */
  thresholdPercent: number;
  /** Fewer samples than this on either side: no verdict (null). */
  minSamples: number;
  now?: Date;
};

export type BuildSide = Record<BuildMetric, MetricStats>;
export type BuildComparisonScope = {
  base: BuildSide;
  target: BuildSide;
  metrics: Record<BuildMetric, MetricComparison>;
};
export type BuildComparison = {
  base: string;
  target: string;
  thresholdPercent: number;
  minSamples: number;
  overall: BuildComparisonScope;
  /** Maps on which both builds have samples, by map id. */
  maps: Array<{ mapId: string } & BuildComparisonScope>;
};

/** Per metric: samples, mean and p50/p95/p99, over the events (values above 0 of sample-carrying events). */
function statColumnsOnEvents(): SqlFragment {
  return raw(
    METRIC_NAMES.map((name) => {
      const { column, scale } = BUILD_METRICS[name];
      const cond = `${column} > 0`;
      return [
        `countIf(${cond}) AS ${name}_n`,
        `avgIf(${column}, ${cond}) * ${scale} AS ${name}_avg`,
        `arrayMap(v -> v * ${scale}, quantilesIf(0.5, 0.95, 0.99)(${column}, ${cond})) AS ${name}_q`,
      ].join(',\n');
    }).join(',\n'),
  );
}

/** The same statistics merged from rollup_build_stats, whose states keep the same conditions. */
function statColumnsOnRollup(): SqlFragment {
  return raw(
    METRIC_NAMES.map((name) => {
      const { scale } = BUILD_METRICS[name];
      return [
        `countIfMerge(${name}_n) AS ${name}_n`,
        `avgIfMerge(${name}_avg) * ${scale} AS ${name}_avg`,
        `arrayMap(v -> v * ${scale}, quantilesIfMerge(0.5, 0.95, 0.99)(${name}_q)) AS ${name}_q`,
      ].join(',\n');
    }).join(',\n'),
  );
}

type StatsRow = { build_id: string; map_id?: string } & Record<string, number | number[] | string | null>;

function toSide(row: StatsRow | undefined): BuildSide {
  const side = {} as BuildSide;
  for (const name of METRIC_NAMES) {
    const n = Number(row?.[`${name}_n`] ?? 0);
    const q = (row?.[`${name}_q`] as number[] | undefined) ?? [];
    side[name] =
      n === 0
        ? { samples: 0, avg: null, p50: null, p95: null, p99: null }
        : { samples: n, avg: Number(row![`${name}_avg`]), p50: q[0]!, p95: q[1]!, p99: q[2]! };
  }
  return side;
}

function scope(base: StatsRow | undefined, target: StatsRow | undefined, q: BuildsCompareQuery): BuildComparisonScope {
  const b = toSide(base);
  const t = toSide(target);
  const metrics = {} as Record<BuildMetric, MetricComparison>;
  for (const name of METRIC_NAMES) {
    metrics[name] = compareStats(b[name], t[name], {
      higherIsBetter: BUILD_METRICS[name].higherIsBetter,
      thresholdPercent: q.thresholdPercent,
      minSamples: q.minSamples,
    });
  }
  return { base: b, target: t, metrics };
}

/**
 * Performance of two builds over the same range, overall and per map. Statistics are over
 * samples (values above 0); quantiles are ClickHouse's `quantiles` (reservoir of 8192 values
 * per group, exact below that, linear interpolation).
 */
export async function compareBuilds(
  clickhouse: ClickHouseReader,
  q: BuildsCompareQuery,
  source: QuerySource = 'rollups',
): Promise<BuildComparison> {
  const window = lastDays(q.days, q.now);
  const builds = sql`build_id IN (${q.base}, ${q.target})`;
  const from =
    source === 'rollups'
      ? sql`${statColumnsOnRollup()} FROM rollup_build_stats WHERE ${projectAndDays(q.projectId, window)} AND ${builds}`
      : sql`${statColumnsOnEvents()} FROM events
             WHERE ${projectAndWindow(q.projectId, window)} AND ${builds} AND ${HAS_SAMPLE}`;
  const [overall, perMap] = await Promise.all([
    clickhouse.rows<StatsRow>(sql`SELECT build_id, ${from} GROUP BY build_id`),
    clickhouse.rows<StatsRow>(sql`SELECT build_id, map_id, ${from} GROUP BY build_id, map_id ORDER BY map_id`),
  ]);
  const find = (rows: StatsRow[], build: string, mapId?: string) =>
    rows.find((r) => r.build_id === build && (mapId === undefined || r.map_id === mapId));
  const mapIds = [...new Set(perMap.map((r) => r.map_id!))].filter(
    (m) => find(perMap, q.base, m) && find(perMap, q.target, m),
  );
  return {
    base: q.base,
    target: q.target,
    thresholdPercent: q.thresholdPercent,
    minSamples: q.minSamples,
    overall: scope(find(overall, q.base), find(overall, q.target), q),
    maps: mapIds.map((mapId) => ({ mapId, ...scope(find(perMap, q.base, mapId), find(perMap, q.target, mapId), q) })),
  };
}
