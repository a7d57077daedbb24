/**
 * Addresses of dashboard pages the CLI prints: the heatmap page at a regressed cell, built by
 * libs/alerts' heatmapDashboardUrl (the one server-side builder of that address, also used by
 * alert notifications). The dashboard builds the same address in the browser; the test next
 * to this file checks that both agree.
 */
import { heatmapDashboardUrl } from '@framedeck/alerts';

export type HeatmapPlace = {
  mapId: string;
  buildId?: string | undefined;
  cellSize: number;
  days: number;
  focus?: { x: number; y: number } | undefined;
};

/** The heatmap page at a place: frame time of the given build, outlining the cell at `focus`. */
export function heatmapLink(appOrigin: string, projectId: string, place: HeatmapPlace): string {
  return heatmapDashboardUrl(appOrigin, { projectId, metric: 'frame_time', ...place });
}
