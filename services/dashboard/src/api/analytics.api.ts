import type { BuildComparison, BuildSummary, DashboardMetrics, FunnelResult, RetentionResult } from './api-types';
import type { operations } from './generated/openapi';
import { http } from './http-client';
import { enc } from './projects.api';

export type InsightMetric = 'count' | 'unique_players';
export type InsightGroupBy = 'day' | 'week' | 'month' | 'event_name' | 'map_id' | 'platform' | 'build_id';
/** The filters every analytics view takes (issue #18): absent = every platform, build and source. */
export type AnalyticsFilterQuery = Pick<
  NonNullable<operations['getInsights']['parameters']['query']>,
  'platform' | 'buildId' | 'source'
>;

export type InsightsQuery = {
  metric: InsightMetric;
  groupBy: InsightGroupBy;
  days: number;
  limit: number;
  eventName?: string | undefined;
} & AnalyticsFilterQuery;
export type InsightsResult = {
  rows: { group: string; value: number; label?: string }[];
  total: number;
  distinctGroups: number;
};

/** base, target, days, and with mapId the per-cell comparison's cellSize, confidence and filters. */
export type CompareBuildsQuery = operations['compareBuilds']['parameters']['query'];

// The builds page's allowed periods (spec: builds query parameters), checked against the API's.
export const BUILD_DAYS = [7, 14, 30, 90] as const satisfies readonly NonNullable<CompareBuildsQuery['days']>[];

const project = (projectId: string, rest: string) => `/v1/projects/${enc(projectId)}${rest}`;

export type {
  BuildCell,
  BuildComparison,
  BuildComparisonScope,
  BuildMetric,
  BuildRegression,
  BuildSummary,
  BuildVerdict,
  DashboardMetrics,
  FunnelResult,
  MetricStats,
  RetentionResult,
} from './api-types';

export const analyticsApi = {
  insights: (projectId: string, query: InsightsQuery, signal?: AbortSignal) =>
    http.request<InsightsResult>(project(projectId, '/insights'), { query, signal }),
  dashboard: (projectId: string, query: { days: number }, signal?: AbortSignal) =>
    http.request<DashboardMetrics>(project(projectId, '/dashboard'), { query, signal }),
  builds: (projectId: string, query: { days: number }, signal?: AbortSignal) =>
    http.request<BuildSummary[]>(project(projectId, '/builds'), { query, signal }),
  compareBuilds: (projectId: string, query: CompareBuildsQuery, signal?: AbortSignal) =>
    http.request<BuildComparison>(project(projectId, '/builds/compare'), { query, signal }),
  retention: (
    projectId: string,
    query: { period: string; days: number; periods?: number } & AnalyticsFilterQuery,
    signal?: AbortSignal,
  ) => http.request<RetentionResult>(project(projectId, '/retention'), { query, signal }),
  funnels: (
    projectId: string,
    query: { steps: readonly string[]; days: number; by: string; windowSeconds: number } & AnalyticsFilterQuery,
    signal?: AbortSignal,
  ) => http.request<FunnelResult>(project(projectId, '/funnels'), { query, signal }),
};
