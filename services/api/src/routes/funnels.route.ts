import { z } from 'zod';
import { FUNNEL_BY, FUNNEL_DAYS, FUNNEL_DEFAULTS, FUNNEL_LIMITS, queryFunnel } from '@framedeck/analytics';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';
import {
  allowedString,
  analyticsDays,
  DimensionFilterParams,
  EventNameParam,
  intInRange,
} from './analytics.schemas.js';

const FunnelQuery = z.strictObject({
  // NOTE: a single ?steps= arrives as a string: the comma-separated form (the Framedash CLI and
  // MCP server send ?steps=a,b,c). A funnel has at least two steps, so a lone value is never one
  // event name; names containing a comma are sent as the repeated form, which is not split.
  steps: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.split(',').map((name) => name.trim()) : v),
      z.array(EventNameParam).min(FUNNEL_LIMITS.minSteps).max(FUNNEL_LIMITS.maxSteps),
    )
    .meta({
      description:
        `The funnel's event names in order, as a repeated parameter (?steps=a&steps=b) or as one comma-separated ` +
        `value (?steps=a,b). ${FUNNEL_LIMITS.minSteps} to ${FUNNEL_LIMITS.maxSteps} steps.`,
    }),
  windowSeconds: intInRange(
    1,
    FUNNEL_LIMITS.maxWindowSeconds,
    FUNNEL_DEFAULTS.windowSeconds,
    'Conversion window: every step must happen within this many seconds of step 1 (second precision).',
  ),
  by: allowedString(FUNNEL_BY, FUNNEL_DEFAULTS.by, 'Count players (non-empty player_id) or sessions.'),
  days: analyticsDays(FUNNEL_DAYS, FUNNEL_DEFAULTS.days),
  ...DimensionFilterParams,
});

const FunnelSchema = z
  .object({
    by: z.enum(FUNNEL_BY),
    windowSeconds: z.int(),
    steps: z.array(
      z.object({
        eventName: z.string(),
        count: z.int().meta({ description: 'Players or sessions that reached this step in order within the window.' }),
        conversion: z.number().meta({ description: 'count / count of step 1 (0 when nobody entered).' }),
        conversionFromPrevious: z.number().meta({ description: 'count / count of the previous step.' }),
      }),
    ),
  })
  .meta({ id: 'Funnel' });

export const funnelRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/funnels',
  operationId: 'getFunnel',
  summary: 'Funnel conversion analysis',
  description:
    'Ordered steps with a conversion window (ClickHouse windowFunnel): each player or session is counted at the deepest ' +
    'step it reached in order, with every step within windowSeconds of its first step. Steps in the same second may ' +
    'count in either order. With platform, buildId or source, only those events are steps.',
  tag: 'Analytics',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: {
    params: ProjectPathParams,
    query: FunnelQuery,
    aliases: { query: { window: 'windowSeconds' } },
  },
  response: { description: 'Count and conversion at each step.', data: FunnelSchema },
  handler: async ({ projectId, query, services }) => queryFunnel(services.clickhouse, { projectId, ...query }),
});
