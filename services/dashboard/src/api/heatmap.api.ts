import { http } from './http-client';
import type { HeatmapCell } from './api-types';
import type { operations } from './generated/openapi';
import { enc } from './projects.api';

export type { HeatmapCell } from './api-types';

// The heatmap's allowed values (spec: heatmap query parameters), checked against the API's.
export const CELL_SIZES = [5, 10, 25, 50] as const satisfies readonly NonNullable<HeatmapQuery['cellSize']>[];
export const HEATMAP_DAYS = [1, 7, 14, 30] as const satisfies readonly NonNullable<HeatmapQuery['days']>[];

export type HeatmapQuery = operations['getHeatmap']['parameters']['query'];

export const heatmapApi = {
  cells: (projectId: string, query: HeatmapQuery, signal?: AbortSignal) =>
    http.request<HeatmapCell[]>(`/v1/projects/${enc(projectId)}/heatmap`, { query, signal }),
};
