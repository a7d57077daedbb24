import { raw, sql, type ClickHouseReader, type SqlFragment } from '@framedeck/clickhouse';
import { boundedGrouping } from './grouping-settings.js';
import { dimensionConditions, type DimensionFilter } from './dimension-filter.js';
import { BYTES_PER_MB } from './heatmap.query.js';
import type { QuerySource } from './query-source.js';
import { histogramOfRollupSql, histogramOfValuesSql, histogramQuantilesSql } from './log-histogram.js';
import { lastDays, projectAndDays, projectAndWindow } from './time-window.js';
import { compareStats, type MetricComparison, type MetricStats } from './builds.verdict.js';

export const BUILDS_DAYS = [7, 14, 30, 90] as const;
export const BUILDS_DEFAULTS = { days: 30, limit: 50 } as const;

/** An event carries performance data when it has a frame sample. */
const HAS_SAMPLE_TEXT = '(fps > 0 OR frame_time_ms > 0)';
const HAS_SAMPLE = raw(HAS_SAMPLE_TEXT);

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

/**
 * The builds list. The filter keeps only those events: a platform or source shows the builds
 * played there, with their counts there; buildId only that build (a CI job polling for its own
 * build, whatever the limit).
 */
export type BuildsQuery = {
  projectId: string;
  days: number;
  limit: number;
  now?: Date;
} & DimensionFilter;

/**
 * Build ids that have performance data in the range, most recently seen first: from
 * rollup_build_stats (clickhouse/014, one row per day, build, map, platform and source), or
 * the plain query over events it is tested against.
 */
export async function queryBuilds(
  clickhouse: ClickHouseReader,
  q: BuildsQuery,
  source: QuerySource = 'rollups',
): Promise<BuildSummary[]> {
  const window = lastDays(q.days, q.now);
  const only = dimensionConditions(q);
  const stats =
    source === 'rollups'
      ? sql`sum(events) AS events, sum(samples) AS samples,
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

/** A metric's scaled value (memory in MB), what its histogram buckets (clickhouse/014 holds the same text). */
export function scaledValue(name: BuildMetric): string {
  const { column, scale } = BUILD_METRICS[name];
  return scale === 1 ? column : `${column} / ${1 / scale}`;
}
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
  /** Only events of this map / platform / source (player or automated runs). */
  mapId?: string | undefined;
  now?: Date;
} & Pick<DimensionFilter, 'platform' | 'source'>;

/** The optional map, platform and source conditions, the same on events and on the rollups. */
function compareFilters(q: Pick<BuildsCompareQuery, 'mapId' | 'platform' | 'source'>): SqlFragment {
  const map = q.mapId !== undefined ? sql` AND map_id = ${q.mapId}` : sql``;
  return sql`${map}${dimensionConditions({ platform: q.platform, source: q.source })}`;
}

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

/**
 * Per build and map, per metric: samples, mean and p50/p95/p99 (log-bucket histogram quantiles,
 * log-histogram.ts), over the events (values above 0 of sample-carrying events) or summed from
 * rollup_build_stats, whose views keep the same conditions (clickhouse/014); and the sum and the
 * histogram themselves (m_<metric>_s, m_<metric>_h), which overallColumns adds up over the maps.
 */
function perMapColumns(source: QuerySource): SqlFragment {
  return raw(
    METRIC_NAMES.map((name) => {
      const { column, scale } = BUILD_METRICS[name];
      const cond = `${column} > 0 AND ${HAS_SAMPLE_TEXT}`;
      const [samples, sum, histogram] =
        source === 'rollups'
          ? [`sum(${name}_samples)`, `sum(${name}_sum)`, histogramOfRollupSql(`${name}_histogramMap`)]
          : [`countIf(${cond})`, `sumIf(${column}, ${cond})`, histogramOfValuesSql(scaledValue(name), cond)];
      return [
        `${samples} AS m_${name}_n`,
        `${sum} AS m_${name}_s`,
        `${histogram} AS m_${name}_h`,
        `${sum} / ${samples} * ${scale} AS m_${name}_avg`,
        `${histogramQuantilesSql(histogram)} AS m_${name}_q`,
      ].join(',\n');
    }).join(',\n'),
  );
}

/**
 * Per build, over the rows of perMapColumns (one per map): the overall statistics, from the
 * maps' samples, sums and histograms added up (the maps split the build's events, so these are
 * the build's), and each map's as arrays in the order of `map_ids`.
 */
function overallColumns(): SqlFragment {
  return raw(
    METRIC_NAMES.map((name) => {
      const { scale } = BUILD_METRICS[name];
      const histogram = `sumMap(tupleElement(m_${name}_h, 1), tupleElement(m_${name}_h, 2))`;
      return [
        `sum(m_${name}_n) AS ${name}_n`,
        `sum(m_${name}_s) / sum(m_${name}_n) * ${scale} AS ${name}_avg`,
        `${histogramQuantilesSql(histogram)} AS ${name}_q`,
        `groupArray(m_${name}_n) AS maps_${name}_n`,
        `groupArray(m_${name}_avg) AS maps_${name}_avg`,
        `groupArray(m_${name}_q) AS maps_${name}_q`,
      ].join(',\n');
    }).join(',\n'),
  );
}

type StatsRow = { build_id: string; map_id?: string } & Record<string, number | number[] | string | null>;
/** A build's overall statistics (StatsRow) and its maps' (map_ids and maps_<field> arrays, aligned). */
type BuildRow = StatsRow & { map_ids: string[] } & Record<string, unknown>;

/** The StatsRow of the build's i-th map, from the aligned arrays of a BuildRow. */
function mapRow(row: BuildRow, i: number): StatsRow {
  const map: StatsRow = { build_id: row.build_id, map_id: row.map_ids[i]! };
  for (const name of METRIC_NAMES)
    for (const field of ['n', 'avg', 'q'])
      map[`${name}_${field}`] = (row[`maps_${name}_${field}`] as Array<number | number[] | null>)[i]!;
  return map;
}

/** Byte order of the UTF-8 text, as ClickHouse's ORDER BY of a String. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

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
 * samples (values above 0); quantiles: see statColumns. From rollup_build_stats, or the
 * plain query over events it is tested against.
 */
export async function compareBuilds(
  clickhouse: ClickHouseReader,
  q: BuildsCompareQuery,
  source: QuerySource = 'rollups',
): Promise<BuildComparison> {
  const window = lastDays(q.days, q.now);
  const builds = sql`build_id IN (${q.base}, ${q.target})${compareFilters(q)}`;
  const from =
    source === 'rollups'
      ? sql`${perMapColumns('rollups')} FROM rollup_build_stats WHERE ${projectAndDays(q.projectId, window)} AND ${builds}`
      : sql`${perMapColumns('events')} FROM events
             WHERE ${projectAndWindow(q.projectId, window)} AND ${builds} AND ${HAS_SAMPLE}`;
  // One read of the rows, per build and map; the overall statistics add the maps' up (the
  // histograms, summed per map first, are small): reading them twice, once per grouping, cost
  // twice as much where the histograms are long (a rollup row holds one entry per value until
  // its part merges).
  const overall =
    await clickhouse.rows<BuildRow>(sql`SELECT build_id, groupArray(map_id) AS map_ids, ${overallColumns()}
      FROM (SELECT build_id, map_id, ${from} GROUP BY build_id, map_id)
     GROUP BY build_id
     ${boundedGrouping()}`);
  const perMap = overall
    .flatMap((row) => row.map_ids.map((_, i) => mapRow(row, i)))
    .sort((a, b) => byBytes(a.map_id!, b.map_id!));
  const find = (rows: StatsRow[], build: string, mapId?: string) =>
    rows.find((r) => r.build_id === build && (mapId === undefined || r.map_id === mapId));
  // NOTE: the rollup keeps rows of events without a frame sample too (all counts 0), which the
  // plain query never selects: a map is compared only when both builds have frame samples there.
  const sampled = (row: StatsRow | undefined) => row !== undefined && Number(row.fps_n) + Number(row.frame_time_n) > 0;
  const mapIds = [...new Set(perMap.map((r) => r.map_id!))].filter(
    (m) => sampled(find(perMap, q.base, m)) && sampled(find(perMap, q.target, m)),
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

/** One build's values of one metrics-map key (io.read_bytes, mem.vram, load_time_ms, ...). */
export type MetricValueStats = { samples: number; p50: number; p95: number; p99: number };

/**
 * The metrics-map values of the two builds, per key: from rollup_build_metric_values
 * (clickhouse/007) or from the events' metrics arrays. Every value counts, 0 included (for
 * I/O, 0 is a measurement). Quantiles: reservoir `quantiles`, as the comparison's.
 */
export async function queryBuildMetricValues(
  clickhouse: ClickHouseReader,
  q: Pick<BuildsCompareQuery, 'projectId' | 'base' | 'target' | 'days' | 'mapId' | 'platform' | 'source' | 'now'>,
  source: QuerySource = 'rollups',
): Promise<Map<string, { base?: MetricValueStats; target?: MetricValueStats }>> {
  const window = lastDays(q.days, q.now);
  const builds = sql`build_id IN (${q.base}, ${q.target})${compareFilters(q)}`;
  const query =
    source === 'rollups'
      ? sql`SELECT build_id, metric, countMerge(samples) AS n, quantilesMerge(0.5, 0.95, 0.99)(value_q) AS q
          FROM rollup_build_metric_values WHERE ${projectAndDays(q.projectId, window)} AND ${builds}
         GROUP BY build_id, metric`
      : sql`SELECT build_id, metric_key AS metric, count() AS n, quantiles(0.5, 0.95, 0.99)(metric_value) AS q
          FROM events ARRAY JOIN metrics.key AS metric_key, metrics.value AS metric_value
         WHERE ${projectAndWindow(q.projectId, window)} AND ${builds}
         GROUP BY build_id, metric`;
  const rows = await clickhouse.rows<{ build_id: string; metric: string; n: number; q: number[] }>(query);
  const byMetric = new Map<string, { base?: MetricValueStats; target?: MetricValueStats }>();
  for (const r of rows.sort((a, b) => a.metric.localeCompare(b.metric))) {
    const entry = byMetric.get(r.metric) ?? {};
    const stats = { samples: Number(r.n), p50: r.q[0]!, p95: r.q[1]!, p99: r.q[2]! };
    if (r.build_id === q.base) entry.base = stats;
    else entry.target = stats;
    byMetric.set(r.metric, entry);
  }
  return byMetric;
}

/**
 * One row of the flat list the Framedash CLI's perf-diff gates on: p50 and the p95 tail of
 * each build, the p50's change in percent of the base's (null when the base's p50 is 0 or a
 * side has no sample), and whether that change is a regression beyond the threshold (every
 * metric listed is lower-is-better).
 */
export type BuildMetricDiff = {
  metric: string;
  baselineP50: number | null;
  candidateP50: number | null;
  diffPct: number | null;
  isRegression: boolean;
  baselineTail: number | null;
  candidateTail: number | null;
};

/**
 * Which metrics-map keys the flat list compares: performance measurements (I/O, memory, GPU,
 * CPU, network, loading, and any key in milliseconds), not gameplay values a game also sends
 * as metrics (a purchase's price would gate a build on what players bought).
 */
export function isPerformanceMetricKey(key: string): boolean {
  return /^(io|mem|memory|gpu|cpu|net|load|render|frame|game)[._]/.test(key) || /_(ms|bytes)$/.test(key);
}

/** The fixed fields the flat list carries, by their comparison name. */
const DIFF_FIELDS = ['frame_time', 'memory', 'gpu_time', 'game_thread', 'render_thread'] as const;

export function buildMetricDiffs(
  comparison: Pick<BuildComparison, 'overall' | 'thresholdPercent'>,
  values: ReadonlyMap<string, { base?: MetricValueStats; target?: MetricValueStats }>,
): BuildMetricDiff[] {
  const diff = (metric: string, base: { p50: number | null; p95: number | null } | undefined, target: typeof base) => {
    const b = base?.p50 ?? null;
    const t = target?.p50 ?? null;
    const diffPct = b !== null && t !== null && b !== 0 ? ((t - b) / b) * 100 : null;
    return {
      metric,
      baselineP50: b,
      candidateP50: t,
      diffPct,
      isRegression: diffPct !== null && diffPct > comparison.thresholdPercent,
      baselineTail: base?.p95 ?? null,
      candidateTail: target?.p95 ?? null,
    };
  };
  return [
    ...DIFF_FIELDS.map((name) => diff(name, comparison.overall.base[name], comparison.overall.target[name])),
    ...[...values]
      .filter(([metric]) => isPerformanceMetricKey(metric))
      .map(([metric, v]) => diff(metric, v.base, v.target)),
  ];
}
