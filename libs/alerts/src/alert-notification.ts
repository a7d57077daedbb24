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
    /** Worst cells first: cell centre in world units, the cell's average of the metric. */
    worstCells: WorstCell[];
  };
  /** The dashboard's heatmap of this map, at the rule's cell size and window. */
  dashboardUrl: string;
};

/**
 * The dashboard page that shows what was evaluated:
 * `{app_origin}/projects/{projectId}/heatmap?mapId={map's own id}&cellSize=…&days=…&metric=…`.
 * mapId is the user-specified identifier, as in GET /v1/projects/{id}/heatmap.
 */
export function heatmapDashboardUrl(
  appOrigin: string,
  input: { projectId: string; mapId: string; cellSize: number; days: number; metric: AlertMetric },
): string {
  const url = new URL(`/projects/${encodeURIComponent(input.projectId)}/heatmap`, appOrigin);
  url.searchParams.set('mapId', input.mapId);
  url.searchParams.set('cellSize', String(input.cellSize));
  url.searchParams.set('days', String(input.days));
  url.searchParams.set('metric', input.metric);
  return url.toString();
}
