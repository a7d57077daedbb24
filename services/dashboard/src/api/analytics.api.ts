import type { BuildComparison, BuildSummary, DashboardMetrics, FunnelResult, RetentionResult } from './api-types';
import { http } from './http-client';
import { enc } from './projects.api';

export type InsightMetric = 'count' | 'unique_players';
export type InsightGroupBy = 'day' | 'week' | 'month' | 'event_name' | 'map_id' | 'platform' | 'build_id';
export type InsightsQuery = {
  metric: InsightMetric;
  groupBy: InsightGroupBy;
  days: number;
  limit: number;
  eventName?: string | undefined;
};
export type InsightsResult = {
  rows: { group: string; value: number; label?: string }[];
  total: number;
  distinctGroups: number;
};

const project = (projectId: string, rest: string) => `/v1/projects/${enc(projectId)}${rest}`;

export type {
  BuildComparison,
  BuildComparisonScope,
  BuildMetric,
  BuildSummary,
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
  compareBuilds: (projectId: string, query: { base: string; target: string; days: number }, signal?: AbortSignal) =>
    http.request<BuildComparison>(project(projectId, '/builds/compare'), { query, signal }),
  retention: (projectId: string, query: { period: string; days: number; periods?: number }, signal?: AbortSignal) =>
    http.request<RetentionResult>(project(projectId, '/retention'), { query, signal }),
  funnels: (
    projectId: string,
    query: { steps: readonly string[]; days: number; by: string; windowSeconds: number },
    signal?: AbortSignal,
  ) => http.request<FunnelResult>(project(projectId, '/funnels'), { query, signal }),
};
