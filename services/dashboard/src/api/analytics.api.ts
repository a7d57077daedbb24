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

export type BuildSummary = {
  buildId: string;
  events: number;
  samples: number;
  platforms: string[];
  maps: number;
  firstSeen: string;
  lastSeen: string;
};

export type BuildMetric = 'fps' | 'frame_time' | 'memory' | 'gpu_time' | 'game_thread' | 'render_thread';
export type MetricStats = {
  samples: number;
  avg: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
};
export type MetricComparison = {
  delta: { avg: number | null; p50: number | null; p95: number | null; p99: number | null };
  deltaPercent: number | null;
  verdict: 'better' | 'worse' | 'unchanged' | null;
};
export type BuildComparisonScope = {
  base: Record<BuildMetric, MetricStats>;
  target: Record<BuildMetric, MetricStats>;
  metrics: Record<BuildMetric, MetricComparison>;
};
export type BuildComparison = {
  base: string;
  target: string;
  thresholdPercent: number;
  minSamples: number;
  overall: BuildComparisonScope;
  maps: ({ mapId: string } & BuildComparisonScope)[];
};

export type RetentionResult = {
  period: 'day' | 'week';
  k: number;
  cohorts: { cohort: string; size: number; retained: (number | null)[]; rates: (number | null)[] }[];
};

export type FunnelResult = {
  by: 'player' | 'session';
  windowSeconds: number;
  steps: { eventName: string; count: number; conversion: number; conversionFromPrevious: number }[];
};

export type DashboardMetrics = {
  dau: number;
  mau: number;
  players: number;
  sessions: number;
  events: number;
  avgDau: number;
  stickiness: number;
  daily: { date: string; events: number; players: number; sessions: number }[];
};

export const analyticsApi = {
  insights: (projectId: string, query: InsightsQuery, signal?: AbortSignal) =>
    http.request<InsightsResult>(project(projectId, '/insights'), { query, signal }),
  dashboard: (projectId: string, query: { days: number }, signal?: AbortSignal) =>
    http.request<DashboardMetrics>(project(projectId, '/dashboard'), { query, signal }),
  builds: (projectId: string, query: { days: number }, signal?: AbortSignal) =>
    http.request<BuildSummary[]>(project(projectId, '/builds'), { query, signal }),
  compareBuilds: (projectId: string, query: { base: string; target: string; days: number }, signal?: AbortSignal) =>
    http.request<BuildComparison>(project(projectId, '/builds/compare'), { query, signal }),
  retention: (projectId: string, query: { period: string; days: number; k?: number }, signal?: AbortSignal) =>
    http.request<RetentionResult>(project(projectId, '/retention'), { query, signal }),
  funnels: (
    projectId: string,
    query: { steps: string; days: number; by: string; windowSeconds: number },
    signal?: AbortSignal,
  ) => http.request<FunnelResult>(project(projectId, '/funnels'), { query, signal }),
};
