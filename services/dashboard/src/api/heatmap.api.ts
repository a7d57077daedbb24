import { http } from './http-client';
import { enc } from './projects.api';

export type HeatmapCell = {
  x: number;
  y: number;
  weight: number;
  event_count: number;
  avg_fps: number;
  avg_frame_time: number;
  avg_memory: number;
  avg_gpu_time: number | null;
  /** Extension of ours: 95th percentile frame time (ms); null when no frame sample. */
  p95_frame_time?: number | null;
};

export const CELL_SIZES = [5, 10, 25, 50] as const;
export const HEATMAP_DAYS = [1, 7, 14, 30] as const;

export type HeatmapQuery = {
  mapId: string;
  cellSize: number;
  days: number;
  /** Events mode; omitted for Performance mode. */
  eventName?: string | undefined;
};

export const heatmapApi = {
  cells: (projectId: string, query: HeatmapQuery, signal?: AbortSignal) =>
    http.request<HeatmapCell[]>(`/v1/projects/${enc(projectId)}/heatmap`, { query, signal }),
};
