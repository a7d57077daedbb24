import { http } from './http-client';
import type { HeatmapCell } from './api-types';
import type { operations } from './generated/openapi';
import { enc } from './projects.api';
import type { AnalyticsFilterQuery } from './analytics.api';

export type { HeatmapCell } from './api-types';

// The heatmap's allowed values (spec: heatmap query parameters), checked against the API's.
export const CELL_SIZES = [5, 10, 25, 50] as const satisfies readonly NonNullable<HeatmapQuery['cellSize']>[];
export const HEATMAP_DAYS = [1, 7, 14, 30] as const satisfies readonly NonNullable<HeatmapQuery['days']>[];

// NOTE: platform, source and zMin/zMax join the generated query type once the API's OpenAPI
// has them (issue #18); until then they are added here, as the API contract states them.
export type HeatmapQuery = operations['getHeatmap']['parameters']['query'] & AnalyticsFilterQuery & ZSlice;

/** One floor of a multi-floor map: only events with position_z in range (either bound optional). */
export type ZSlice = { zMin?: number | undefined; zMax?: number | undefined };

/** A ranked cell of GET …/heatmap/worst-areas (the contract of issue #18, item 2). */
export type WorstArea = {
  x: number;
  y: number;
  samples: number;
  p95_frame_time: number | null;
  p99_frame_time: number | null;
  hitch_share_33ms: number | null;
  hitch_share_50ms: number | null;
  avg_fps: number | null;
  platforms: { platform: string; samples: number }[];
};

export type WorstAreasQuery = {
  mapId: string;
  days: number;
  cellSize: number;
  minSamples: number;
  limit: number;
} & AnalyticsFilterQuery &
  ZSlice;

export const heatmapApi = {
  cells: (projectId: string, query: HeatmapQuery, signal?: AbortSignal) =>
    http.request<HeatmapCell[]>(`/v1/projects/${enc(projectId)}/heatmap`, { query, signal }),
  worstAreas: (projectId: string, query: WorstAreasQuery, signal?: AbortSignal) =>
    http.request<WorstArea[]>(`/v1/projects/${enc(projectId)}/heatmap/worst-areas`, { query, signal }),
};
