import { CELL_SIZES, HEATMAP_DAYS } from '../api/heatmap.api';

/** A world point the heatmap page outlines and reads out on arrival (its `focus=x,y` parameter). */
export type FocusPoint = { x: number; y: number };

/** What another page can ask the heatmap page to show: the names of its URL parameters. */
export type HeatmapPlace = {
  mapId: string;
  buildId?: string | undefined;
  cellSize: number;
  days: number;
  focus?: FocusPoint | undefined;
};

/**
 * The heatmap page's address for a place: performance mode on frame time, the given build,
 * cell size and period (a period the heatmap does not offer becomes its longest, 30 days).
 */
export function heatmapLink(projectId: string, place: HeatmapPlace): string {
  const params = new URLSearchParams({ mapId: place.mapId, metric: 'frame_time' });
  if (place.buildId) params.set('buildId', place.buildId);
  if ((CELL_SIZES as readonly number[]).includes(place.cellSize)) params.set('cellSize', String(place.cellSize));
  const days = (HEATMAP_DAYS as readonly number[]).includes(place.days) ? place.days : HEATMAP_DAYS.at(-1)!;
  params.set('days', String(days));
  if (place.focus) params.set('focus', `${place.focus.x},${place.focus.y}`);
  return `/projects/${encodeURIComponent(projectId)}/heatmap?${params.toString()}`;
}

/** `focus=x,y` back to a point; anything else (missing, hand-edited, not finite) is no focus. */
export function parseFocus(value: string): FocusPoint | undefined {
  const parts = value.split(',');
  if (parts.length !== 2 || parts.some((p) => p.trim() === '')) return undefined;
  const [x, y] = parts.map(Number) as [number, number];
  return Number.isFinite(x) && Number.isFinite(y) ? { x, y } : undefined;
}
