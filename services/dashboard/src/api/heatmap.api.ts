import { http } from './http-client';
import type { HeatmapCell, WorstArea } from './api-types';
import type { operations } from './generated/openapi';
import { enc } from './projects.api';

export type { HeatmapCell, WorstArea } from './api-types';

// The heatmap's allowed values (spec: heatmap query parameters), checked against the API's.
export const CELL_SIZES = [5, 10, 25, 50] as const satisfies readonly NonNullable<HeatmapQuery['cellSize']>[];
export const HEATMAP_DAYS = [1, 7, 14, 30] as const satisfies readonly NonNullable<HeatmapQuery['days']>[];

/** The heatmap's view: map, cell size, period, the analytics filters and a z slice (one floor of a multi-floor map). */
export type HeatmapQuery = operations['getHeatmap']['parameters']['query'];
/** The heatmap's view, minus Events mode, plus the ranking's minimum samples and limit. */
export type WorstAreasQuery = operations['getWorstAreas']['parameters']['query'];

export const heatmapApi = {
  cells: (projectId: string, query: HeatmapQuery, signal?: AbortSignal) =>
    http.request<HeatmapCell[]>(`/v1/projects/${enc(projectId)}/heatmap`, { query, signal }),
  worstAreas: (projectId: string, query: WorstAreasQuery, signal?: AbortSignal) =>
    http.request<WorstArea[]>(`/v1/projects/${enc(projectId)}/heatmap/worst-areas`, { query, signal }),
};
