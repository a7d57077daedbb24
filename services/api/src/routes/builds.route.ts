import { z } from 'zod';
import { BUILD_METRICS, BUILDS_DAYS, BUILDS_DEFAULTS, compareBuilds, queryBuilds } from '@framedeck/analytics';
import { problems } from '@framedeck/problem';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';
import { analyticsDays, intInRange } from './analytics.schemas.js';

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
  description: 'Builds (non-empty build_id) with at least one frame sample in the range, most recently seen first.',
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

const BuildComparisonSchema = z
  .object({
    base: z.string(),
    target: z.string(),
    thresholdPercent: z.number(),
    minSamples: z.int(),
    overall: ScopeSchema,
    maps: z
      .array(ScopeSchema.extend({ mapId: z.string() }))
      .meta({ description: 'Maps where both builds have samples.' }),
  })
  .meta({
    id: 'BuildComparison',
    description:
      'Metrics: fps, frame_time (ms), memory (MB = MiB), gpu_time, game_thread, render_thread (ms). Statistics over ' +
      'samples above 0; quantiles interpolate linearly and are exact up to 8192 samples per build (and map).',
  });

export const compareBuildsRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/builds/compare',
  operationId: 'compareBuilds',
  summary: 'Compare the performance of two builds',
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
      minSamples: intInRange(1, 100_000, 30, 'Fewer samples than this on either side: verdict null.'),
    }),
  },
  response: { description: 'Statistics, deltas and verdicts, overall and per map.', data: BuildComparisonSchema },
  handler: async ({ projectId, query, services }) => {
    if (query.base === query.target) throw problems.badRequest('Invalid request: query.target: must differ from base.');
    return compareBuilds(services.clickhouse, {
      projectId,
      base: query.base,
      target: query.target,
      days: query.days,
      thresholdPercent: query.threshold,
      minSamples: query.minSamples,
    });
  },
});
