import { z } from 'zod';
import {
  BUILD_METRICS,
  BUILDS_DAYS,
  BUILDS_DEFAULTS,
  HEATMAP_CELL_SIZES,
  HEATMAP_DEFAULTS,
  HITCH_THRESHOLDS_MS,
  MIN_SAMPLES,
  buildMetricDiffs,
  compareBuildCells,
  compareBuilds,
  queryBuildMetricValues,
  queryBuilds,
} from '@framedeck/analytics';
import { problems } from '@framedeck/problem';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';
import { findMap } from '../maps/find-map.js';
import { allowedInt, analyticsDays, DimensionFilterParams, intInRange } from './analytics.schemas.js';

const BuildId = z.string().min(1).max(255);

const BuildSchema = z
  .object({
    buildId: z.string(),
    events: z.int(),
    samples: z.int().meta({ description: 'Events with a frame sample (fps or frame time above 0).' }),
    platforms: z.array(z.string()),
    maps: z.int().meta({ description: 'Distinct map ids the build’s events name.' }),
    firstSeen: z.iso.datetime(),
    lastSeen: z.iso.datetime(),
    build_id: z.string().meta({ description: 'Same as buildId (the field the Framedash CLI reads).' }),
    event_count: z.int().meta({
      description: 'Same as samples: the performance events of the build (what the Framedash CLI waits on).',
    }),
  })
  .meta({ id: 'Build' });

export const listBuildsRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/builds',
  operationId: 'listBuilds',
  summary: 'Build ids that have performance data',
  description:
    'Builds (non-empty build_id) with at least one frame sample in the range, most recently seen first. With ' +
    'platform or source, only those events count (the builds played there, with their figures there).',
  tag: 'Analytics',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: {
    params: ProjectPathParams,
    query: z.strictObject({
      days: analyticsDays(BUILDS_DAYS, BUILDS_DEFAULTS.days),
      limit: intInRange(1, 200, BUILDS_DEFAULTS.limit, 'Maximum number of builds.'),
      buildId: BuildId.optional().meta({
        description: 'Only this build (an empty list when it has no performance data in the range), whatever limit.',
      }),
      platform: DimensionFilterParams.platform,
      source: DimensionFilterParams.source,
      fresh: z.enum(['0', '1', 'true', 'false']).optional().meta({
        description:
          'Accepted for the Framedash CLI, which asks for a live read: the list is always read live (no cache).',
      }),
    }),
  },
  response: { description: 'Builds.', data: z.array(BuildSchema) },
  handler: async ({ projectId, query, services }) => {
    const builds = await queryBuilds(services.clickhouse, {
      projectId,
      days: query.days,
      limit: query.limit,
      buildId: query.buildId,
      platform: query.platform,
      source: query.source,
    });
    return builds.map((b) => ({ ...b, build_id: b.buildId, event_count: b.samples }));
  },
});

const StatsSchema = z
  .object({
    samples: z.int().meta({ description: 'Events with a value above 0 (0 = not collected).' }),
    avg: z.number().nullable(),
    p50: z.number().nullable(),
    p95: z.number().nullable(),
    p99: z.number().nullable(),
  })
  .meta({ id: 'BuildMetricStats', description: 'All null when the build has no sample of the metric.' });

const ComparisonSchema = z
  .object({
    delta: z.object({
      avg: z.number().nullable(),
      p50: z.number().nullable(),
      p95: z.number().nullable(),
      p99: z.number().nullable(),
    }),
    deltaPercent: z.number().nullable().meta({ description: 'Change of the mean, in percent of the base mean.' }),
    verdict: z
      .enum(['better', 'worse', 'unchanged'])
      .nullable()
      .meta({
        description:
          'unchanged when |deltaPercent| ≤ threshold; otherwise better/worse by the metric’s direction (fps: higher is ' +
          'better; the others: lower is better). null when either build has fewer than minSamples samples.',
      }),
  })
  .meta({ id: 'BuildMetricComparison' });

const metricNames = Object.keys(BUILD_METRICS) as [keyof typeof BUILD_METRICS, ...(keyof typeof BUILD_METRICS)[]];
const perMetric = <S extends z.ZodType>(schema: S) =>
  z.object(Object.fromEntries(metricNames.map((m) => [m, schema])) as Record<keyof typeof BUILD_METRICS, S>);

const ScopeSchema = z.object({
  base: perMetric(StatsSchema),
  target: perMetric(StatsSchema),
  metrics: perMetric(ComparisonSchema),
});

const nullableNumber = z.number().nullable();

const CellSideSchema = z
  .object({
    samples: z.int().meta({ description: 'Frame samples (frame time above 0) of the build in the cell.' }),
    p50FrameTime: nullableNumber,
    p95FrameTime: nullableNumber,
    p99FrameTime: nullableNumber,
    avgFrameTime: nullableNumber,
    avgFps: nullableNumber,
    avgMemory: nullableNumber.meta({ description: 'MB (MiB).' }),
    avgGpuTime: nullableNumber,
    avgGameThread: nullableNumber,
    avgRenderThread: nullableNumber,
    hitchShare33: nullableNumber.meta({ description: `Share of frame samples over ${HITCH_THRESHOLDS_MS[0]} ms.` }),
    hitchShare50: nullableNumber.meta({ description: `Share of frame samples over ${HITCH_THRESHOLDS_MS[1]} ms.` }),
  })
  .meta({ id: 'BuildCellSide', description: 'Frame times in ms (quantiles to 0.1 ms); null without samples.' });

const BuildCellSchema = z
  .object({
    x: z.number().meta({ description: 'Cell centre X in world units, as the heatmap.' }),
    y: z.number(),
    verdict: z.enum(['better', 'worse', 'unchanged', 'insufficient']).meta({
      description: 'Frame time verdict of the cell (see the operation description for the test).',
    }),
    deltaMs: nullableNumber.meta({ description: 'Platform-stratified change of mean frame time, ms (target − base).' }),
    deltaPercent: nullableNumber,
    z: nullableNumber.meta({ description: 'Test statistic: deltaMs / its standard error.' }),
    platforms: z.array(z.string()).meta({ description: 'Platforms compared (enough samples on both sides).' }),
    base: CellSideSchema,
    target: CellSideSchema,
  })
  .meta({ id: 'BuildCell' });

const RegressionSchema = z
  .object({
    x: z.number(),
    y: z.number(),
    deltaMs: z.number(),
    deltaPercent: nullableNumber,
    targetSamples: z.int(),
    impact: z.number().meta({ description: 'targetSamples × deltaMs: the ranking key (time spent there × delta).' }),
  })
  .meta({ id: 'BuildRegression' });

const DiffSchema = z
  .object({
    metric: z.string().meta({
      description:
        'frame_time, memory, gpu_time, game_thread, render_thread, then the performance keys of the events’ metrics map ' +
        '(io.read_bytes, mem.vram, load_time_ms, ...).',
    }),
    baselineP50: nullableNumber,
    candidateP50: nullableNumber,
    diffPct: nullableNumber.meta({ description: 'Change of the p50 in percent of the base p50; null when it is 0.' }),
    isRegression: z.boolean().meta({ description: 'diffPct above threshold (every metric here: lower is better).' }),
    baselineTail: nullableNumber.meta({ description: 'p95.' }),
    candidateTail: nullableNumber,
  })
  .meta({ id: 'BuildMetricDiff' });

const BuildComparisonSchema = z
  .object({
    base: z.string(),
    target: z.string(),
    baseline: z.object({ build_id: z.string() }).meta({ description: 'The base, as the Framedash CLI reads it.' }),
    candidate: z.object({ build_id: z.string() }).meta({ description: 'The target, as the Framedash CLI reads it.' }),
    thresholdPercent: z.number(),
    minSamples: z.int(),
    verdict: z.enum(['better', 'worse', 'unchanged', 'insufficient']).meta({
      description:
        'Frame time, overall: worse when the overall mean got worse or any cell of the compared map is worse ' +
        '(never unchanged while a local regression exists); better when it improved and no cell got worse; ' +
        'insufficient when either build has fewer than minSamples frame samples.',
    }),
    overall: ScopeSchema,
    maps: z
      .array(ScopeSchema.extend({ mapId: z.string() }))
      .meta({ description: 'Maps where both builds have samples.' }),
    diffs: z.array(DiffSchema).meta({ description: 'The flat list perf-diff gates on.' }),
    cells: z
      .array(BuildCellSchema)
      .optional()
      .meta({ description: 'With mapId: every cell either build has samples in.' }),
    regressions: z
      .array(RegressionSchema)
      .optional()
      .meta({ description: 'With mapId: the worse cells, largest impact first.' }),
    testedCells: z.int().optional(),
    criticalZ: z.number().optional().meta({ description: '|z| a cell had to exceed (Bonferroni over testedCells).' }),
    designEffects: z
      .record(z.string(), z.number())
      .optional()
      .meta({
        description:
          'With mapId, per platform: the factor (≥ 1) each platform’s variance was multiplied by because one ' +
          'session’s samples in a cell are correlated, 1 + (m − 1)ρ, estimated from the compared builds’ events.',
      }),
  })
  .meta({
    id: 'BuildComparison',
    description:
      'Metrics: fps, frame_time (ms), memory (MB = MiB), gpu_time, game_thread, render_thread (ms). Statistics over ' +
      'samples above 0; quantiles are the nearest-rank value’s log bucket (within 2 % of it, any range: docs/rollups.md).',
  });

export const compareBuildsRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/builds/compare',
  operationId: 'compareBuilds',
  summary: 'Compare the performance of two builds, overall, per map and per cell',
  description:
    'With mapId, each heatmap cell of that map is tested: per platform seen by both builds with at least minSamples ' +
    'frame samples, the change of mean frame time and its Welch standard error; platforms combined with the base ' +
    'build’s weights (a different platform mix does not fake a change); a cell is worse/better when |z| exceeds ' +
    'the critical value for `confidence` Bonferroni-corrected over the cells tested AND the change exceeds ' +
    '`threshold` percent. docs/analytics.md gives the method and its measured false-positive rate.',
  tag: 'Analytics',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: {
    params: ProjectPathParams,
    query: z.strictObject({
      base: BuildId.meta({ description: 'The reference build.' }),
      target: BuildId.meta({ description: 'The build compared with it.' }),
      days: analyticsDays(BUILDS_DAYS, BUILDS_DEFAULTS.days),
      threshold: intInRange(
        1,
        50,
        5,
        'Noise threshold: relative change of the mean, in percent, that still counts as unchanged.',
      ),
      minSamples: intInRange(
        MIN_SAMPLES.min,
        MIN_SAMPLES.max,
        MIN_SAMPLES.default,
        'Fewer samples than this on either side: verdict null (the worst areas’ default too).',
      ),
      mapId: z.string().min(1).max(255).optional().meta({
        description: 'Only this map (its mapId or internal id), and the per-cell comparison of it.',
      }),
      cellSize: allowedInt(HEATMAP_CELL_SIZES, HEATMAP_DEFAULTS.cellSize, 'Cell size of the per-cell comparison.'),
      platform: DimensionFilterParams.platform,
      source: DimensionFilterParams.source,
      confidence: z.enum(['0.9', '0.95', '0.99']).default('0.95').meta({
        description: 'Confidence of the per-cell test (family-wise over the map’s cells).',
      }),
      fresh: z.enum(['0', '1', 'true', 'false']).optional().meta({
        description: 'Accepted for the Framedash CLI (run-profile-test): the comparison is always read live.',
      }),
    }),
    aliases: { query: { baseline: 'base', candidate: 'target' } },
  },
  response: {
    description: 'Statistics, deltas and verdicts, overall, per map and (with mapId) per cell.',
    data: BuildComparisonSchema,
  },
  handler: async ({ projectId, query, services }) => {
    if (query.base === query.target) throw problems.badRequest('Invalid request: query.target: must differ from base.');
    const map = query.mapId === undefined ? undefined : await findMap(services.pool, projectId, query.mapId);
    if (query.mapId !== undefined && !map) throw problems.notFound('Map not found.');
    const filters = { mapId: map?.mapId, platform: query.platform, source: query.source };
    const scope = { projectId, base: query.base, target: query.target, days: query.days, ...filters };
    const rule = { thresholdPercent: query.threshold, minSamples: query.minSamples };
    const [comparison, values, cells] = await Promise.all([
      compareBuilds(services.clickhouse, { ...scope, ...rule }),
      queryBuildMetricValues(services.clickhouse, scope),
      map
        ? compareBuildCells(services.clickhouse, {
            ...scope,
            ...rule,
            mapId: map.mapId,
            bounds: map,
            cellSize: query.cellSize,
            confidence: Number(query.confidence),
          })
        : undefined,
    ]);
    const overall = comparison.overall.metrics.frame_time.verdict;
    const verdict: 'better' | 'worse' | 'unchanged' | 'insufficient' =
      overall === null
        ? 'insufficient'
        : overall === 'worse' || (cells?.regressions.length ?? 0) > 0
          ? 'worse'
          : overall;
    return {
      ...comparison,
      baseline: { build_id: query.base },
      candidate: { build_id: query.target },
      verdict,
      diffs: buildMetricDiffs(comparison, values),
      ...(cells
        ? {
            cells: cells.cells,
            regressions: cells.regressions,
            testedCells: cells.testedCells,
            criticalZ: cells.criticalZ,
            designEffects: cells.designEffects,
          }
        : {}),
    };
  },
});
