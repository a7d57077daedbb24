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
export type InsightsResult = { rows: { group: string; value: number }[]; total: number; distinctGroups: number };

const project = (projectId: string, rest: string) => `/v1/projects/${enc(projectId)}${rest}`;

// Shapes of builds, compare, retention and funnels are ours (the spec lists them only): the
// pages read them loosely and show what is there.
export type Json = Record<string, unknown>;

export const analyticsApi = {
  insights: (projectId: string, query: InsightsQuery, signal?: AbortSignal) =>
    http.request<InsightsResult>(project(projectId, '/insights'), { query, signal }),
  builds: (projectId: string, signal?: AbortSignal) => http.request<unknown>(project(projectId, '/builds'), { signal }),
  compareBuilds: (projectId: string, query: Record<string, string | number>, signal?: AbortSignal) =>
    http.request<Json>(project(projectId, '/builds/compare'), { query, signal }),
  retention: (projectId: string, query: Record<string, string | number>, signal?: AbortSignal) =>
    http.request<unknown>(project(projectId, '/retention'), { query, signal }),
  funnels: (projectId: string, query: Record<string, string | number>, signal?: AbortSignal) =>
    http.request<unknown>(project(projectId, '/funnels'), { query, signal }),
};
