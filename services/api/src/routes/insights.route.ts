import { z } from 'zod';
import {
  INSIGHT_DAYS,
  INSIGHT_DEFAULTS,
  INSIGHT_GROUP_BY,
  INSIGHT_LIMITS,
  INSIGHT_METRICS,
  queryInsights,
  type InsightGroupBy,
} from '@framedeck/analytics';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';
import { labelGroups } from '../content/group-labels.js';
import { allowedInt, analyticsDays, DimensionFilterParams, EventNameParam } from './analytics.schemas.js';

const InsightsQuery = z.strictObject({
  metric: z.enum(INSIGHT_METRICS).meta({
    description:
      'count (events, exact) or unique_players (distinct non-empty player_id: exact up to 512 players ' +
      'in a group, then a HyperLogLog estimate with a standard error of about 1.15 %).',
  }),
  groupBy: z.enum(INSIGHT_GROUP_BY).meta({
    description: 'day (YYYY-MM-DD), week (its Monday, YYYY-MM-DD), month (YYYY-MM), all UTC; or a column value.',
  }),
  days: analyticsDays(INSIGHT_DAYS, INSIGHT_DEFAULTS.days),
  limit: allowedInt(INSIGHT_LIMITS, INSIGHT_DEFAULTS.limit, 'Maximum number of groups returned.'),
  eventName: EventNameParam.optional().meta({ description: 'Only events of this name.' }),
  ...DimensionFilterParams,
});

const InsightsSchema = z
  .object({
    rows: z.array(
      z.object({
        group: z.string(),
        value: z.int(),
        label: z
          .string()
          .optional()
          .meta({
            description:
              'Display name from the content registry (type map, event, build or platform for groupBy map_id, ' +
              'event_name, build_id, platform; for map_id the map’s name when no entry exists). Absent when none.',
          }),
      }),
    ),
    total: z.int().meta({
      description:
        'The metric over the whole range: the sum of all groups for count; distinct players across all groups ' +
        'for unique_players (a player active on two days counts once).',
    }),
    distinctGroups: z.int().meta({ description: 'Groups with data before the limit; may exceed rows.length.' }),
  })
  .meta({ id: 'InsightResult' });

export const insightsRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/insights',
  operationId: 'getInsights',
  summary: 'Aggregate events by time or by a column',
  description:
    'Time groupings (day, week, month) return the most recent `limit` periods that have data, oldest first; ' +
    'other groupings the `limit` largest groups, largest first (ties by name). Periods without data are absent.',
  tag: 'Analytics',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: { params: ProjectPathParams, query: InsightsQuery },
  response: { description: 'Groups, total and distinct group count.', data: InsightsSchema },
  handler: async ({ projectId, query, services }) => {
    const result = await queryInsights(services.clickhouse, { projectId, ...query });
    const labels = await labelGroups(
      services.pool,
      projectId,
      query.groupBy as InsightGroupBy,
      result.rows.map((r) => r.group),
    );
    return {
      ...result,
      rows: result.rows.map((r) => (labels.has(r.group) ? { ...r, label: labels.get(r.group)! } : r)),
    };
  },
});
