/**
 * Addresses of dashboard pages the CLI prints. NOTE: the dashboard owns these URLs
 * (services/dashboard/src/heatmap/heatmap-link.ts, whose page reads the same parameters); the
 * CLI cannot import browser code, so services/cli/src/api/dashboard-links.test.ts checks that both
 * build the same address.
 */

/** Cell sizes and periods the heatmap page offers (other values fall back as the page does). */
const HEATMAP_CELL_SIZES: readonly number[] = [5, 10, 25, 50];
const HEATMAP_PAGE_DAYS: readonly number[] = [1, 7, 14, 30];

export type HeatmapPlace = {
  mapId: string;
  buildId?: string | undefined;
  cellSize: number;
  days: number;
  focus?: { x: number; y: number } | undefined;
};

/**
 * The heatmap page at a place: frame time of the given build, that cell size and period (a
 * period the page does not offer becomes its longest), outlining the cell at `focus`.
 */
export function heatmapLink(appOrigin: string, projectId: string, place: HeatmapPlace): string {
  const params = new URLSearchParams({ mapId: place.mapId, metric: 'frame_time' });
  if (place.buildId) params.set('build', place.buildId);
  if (HEATMAP_CELL_SIZES.includes(place.cellSize)) params.set('cellSize', String(place.cellSize));
  params.set('days', String(HEATMAP_PAGE_DAYS.includes(place.days) ? place.days : HEATMAP_PAGE_DAYS.at(-1)!));
  if (place.focus) params.set('focus', `${place.focus.x},${place.focus.y}`);
  return `${appOrigin}/projects/${encodeURIComponent(projectId)}/heatmap?${params.toString()}`;
}
