import { http } from './http-client';
import type { HeatmapCell } from '@framedeck/analytics';
import { enc } from './projects.api';

// NOTE: response types come from the library the API serves them from (type-only imports,
// erased from the bundle), so a change of shape there fails the dashboard's type check.
export type { HeatmapCell } from '@framedeck/analytics';

// The heatmap's allowed values (spec: heatmap query parameters).
export const CELL_SIZES = [5, 10, 25, 50] as const;
export const HEATMAP_DAYS = [1, 7, 14, 30] as const;

export type HeatmapQuery = {
  mapId: string;
  cellSize: number;
  days: number;
  /** Events mode; omitted for Performance mode. */
  eventName?: string | undefined;
  /** Only events of this build; omitted for every build. */
  buildId?: string | undefined;
};

export const heatmapApi = {
  cells: (projectId: string, query: HeatmapQuery, signal?: AbortSignal) =>
    http.request<HeatmapCell[]>(`/v1/projects/${enc(projectId)}/heatmap`, { query, signal }),
};
