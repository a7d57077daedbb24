import { z } from 'zod';
import { DASHBOARD_DAYS, DASHBOARD_DEFAULTS, queryDashboard } from '@framedeck/analytics';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';
import { analyticsDays } from './analytics.schemas.js';

const DashboardSchema = z
  .object({
    dau: z.int().meta({ description: 'Distinct players (non-empty player_id) on the current UTC day so far.' }),
    mau: z
      .int()
      .meta({ description: 'Distinct players in the last 30 whole UTC days (as `days`=30), whatever `days` is.' }),
    players: z.int().meta({
      description:
        'Distinct players in the range. dau, mau, players and sessions are distinct counts estimated ' +
        'as unique_players insights are: exact up to 512, then HyperLogLog (standard error about 1.15 %).',
    }),
    sessions: z.int().meta({ description: 'Distinct session ids in the range.' }),
    events: z.int().meta({ description: 'Events in the range.' }),
    avgDau: z.number().meta({ description: 'Mean daily distinct players over the days of the range that have data.' }),
    stickiness: z.number().meta({ description: 'dau / mau (0 when mau is 0).' }),
    daily: z
      .array(z.object({ date: z.iso.date(), events: z.int(), players: z.int(), sessions: z.int() }))
      .meta({ description: 'One entry per UTC day with data, oldest first (days without data are absent).' }),
  })
  .meta({ id: 'DashboardMetrics' });

export const dashboardRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/dashboard',
  operationId: 'getDashboard',
  summary: 'Dashboard metrics: DAU, MAU, sessions, event counts, daily series',
  tag: 'Analytics',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: {
    params: ProjectPathParams,
    query: z.strictObject({ days: analyticsDays(DASHBOARD_DAYS, DASHBOARD_DEFAULTS.days) }),
  },
  response: { description: 'KPIs and the daily series.', data: DashboardSchema },
  handler: async ({ projectId, query, services }) =>
    queryDashboard(services.clickhouse, { projectId, days: query.days }),
});
