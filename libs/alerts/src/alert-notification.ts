import type { AlertMetric, AlertStatus, ThresholdLevel } from './alert-rule.model.js';
import type { WorstCell } from './cell-evaluation.js';

/**
 * The JSON document every channel is sent (webhooks get it as is; Slack gets a text rendering).
 * `id` is the notification's idempotency id: a delivery may be repeated (at-least-once), and a
 * receiver that has seen an id can drop the copy. Documented in README "Alerts".
 */
export type AlertNotificationPayload = {
  id: string;
  type: `alert.${AlertStatus}`;
  createdAt: string;
  projectId: string;
  rule: {
    id: string;
    name: string;
    metric: AlertMetric;
    thresholdLevel: ThresholdLevel;
    threshold: number;
    failPercentage: number;
    evaluationDays: number;
    cellSize: number;
  };
  map: { id: string; mapId: string; name: string };
  evaluation: {
    id: string;
    evaluatedAt: string;
    status: AlertStatus;
    failingCells: number;
    totalCells: number;
    failingPercentage: number;
    /**
     * Worst cells first: cell centre in world units, the cell's value of the metric, and the
     * heatmap focused on that cell.
     */
    worstCells: LinkedCell[];
  };
  /** The dashboard's heatmap of this map, at the rule's cell size and window. */
  dashboardUrl: string;
};

/** A reported cell with the dashboard's heatmap focused on it. */
export type LinkedCell = WorstCell & { dashboardUrl: string };

/** What an evaluation looked at: one map's heatmap at the rule's cell size, window and metric. */
export type EvaluatedPlace = { projectId: string; mapId: string; cellSize: number; days: number; metric: AlertMetric };

/**
 * The dashboard page that shows what was evaluated:
 * `{app_origin}/projects/{projectId}/heatmap?mapId={map's own id}&cellSize=…&days=…&metric=…`,
 * with `&focus=x,y` (a cell centre, which the page outlines and reads out) when given.
 * mapId is the user-specified identifier, as in GET /v1/projects/{id}/heatmap.
 */
export function heatmapDashboardUrl(
  appOrigin: string,
  input: EvaluatedPlace & { focus?: { x: number; y: number } },
): string {
  const url = new URL(`/projects/${encodeURIComponent(input.projectId)}/heatmap`, appOrigin);
  url.searchParams.set('mapId', input.mapId);
  url.searchParams.set('cellSize', String(input.cellSize));
  url.searchParams.set('days', String(input.days));
  url.searchParams.set('metric', input.metric);
  if (input.focus) url.searchParams.set('focus', `${input.focus.x},${input.focus.y}`);
  return url.toString();
}

/** The evaluated heatmap's link and the worst cells, each with a link to its own place on it. */
export function linkEvaluatedCells(
  appOrigin: string,
  place: EvaluatedPlace,
  worstCells: readonly WorstCell[],
): { dashboardUrl: string; worstCells: LinkedCell[] } {
  return {
    dashboardUrl: heatmapDashboardUrl(appOrigin, place),
    worstCells: worstCells.map((cell) => ({
      ...cell,
      dashboardUrl: heatmapDashboardUrl(appOrigin, { ...place, focus: { x: cell.x, y: cell.y } }),
    })),
  };
}
