import { z } from 'zod';
import {
  queryRetention,
  RETENTION_DAYS,
  RETENTION_DEFAULTS,
  RETENTION_MAX_K,
  RETENTION_PERIODS,
} from '@framedeck/analytics';
import { problems } from '@framedeck/problem';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';
import { allowedString, analyticsDays, DimensionFilterParams } from './analytics.schemas.js';

const RetentionQuery = z.strictObject({
  period: allowedString(
    RETENTION_PERIODS,
    RETENTION_DEFAULTS.period,
    'Cohort and retention period: day or week (weeks start on Monday, UTC).',
  ),
  days: analyticsDays(RETENTION_DAYS, RETENTION_DEFAULTS.days).meta({
    description:
      'Cohorts of players first seen within the last `days` whole UTC days. One of 7, 14, 30, 90; default 30.',
  }),
  periods: z
    .preprocess(
      (v) => (typeof v === 'string' && /^\d{1,3}$/.test(v) ? Number(v) : v),
      z.int().min(1).max(RETENTION_MAX_K.day).optional(),
    )
    .meta({
      description: `k: retention is reported for N = 0..k periods. 1 to ${RETENTION_MAX_K.day} for days, 1 to ${RETENTION_MAX_K.week} for weeks; default ${RETENTION_DEFAULTS.k.day} (days) or ${RETENTION_DEFAULTS.k.week} (weeks).`,
    }),
  ...DimensionFilterParams,
});

const RetentionSchema = z
  .object({
    period: z.enum(RETENTION_PERIODS),
    k: z.int(),
    cohorts: z.array(
      z.object({
        cohort: z.iso
          .date()
          .meta({ description: 'First day of the period in which the cohort’s players were first seen.' }),
        size: z.int(),
        retained: z.array(z.int().nullable()).meta({
          description:
            'retained[N]: cohort players with any event N periods after their first; null when period N has not begun.',
        }),
        rates: z.array(z.number().nullable()).meta({ description: 'retained[N] / size.' }),
      }),
    ),
  })
  .meta({
    id: 'Retention',
    description:
      'A player (non-empty player_id) belongs to the cohort of their first event in the project’s stored history, so ' +
      'returning players are never counted as new. With platform, buildId or source only those events count, for ' +
      'first-seen too (the Switch cohorts are players by their first Switch event). Cohorts are listed oldest first.',
  });

export const retentionRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/retention',
  operationId: 'getRetention',
  summary: 'Player retention cohorts',
  tag: 'Analytics',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: { params: ProjectPathParams, query: RetentionQuery },
  response: { description: 'Cohorts with retention at N = 0..k.', data: RetentionSchema },
  handler: async ({ projectId, query, services }) => {
    const k = query.periods ?? RETENTION_DEFAULTS.k[query.period];
    if (k > RETENTION_MAX_K[query.period]) {
      throw problems.badRequest(
        `Invalid request: query.periods: at most ${RETENTION_MAX_K[query.period]} for ${query.period}s.`,
      );
    }
    const { period, days, platform, buildId, source } = query;
    return queryRetention(services.clickhouse, { projectId, period, days, k, platform, buildId, source });
  },
});
