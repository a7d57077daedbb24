import {
  ALERT_CELL_SIZES,
  ALERT_EVALUATION_DAYS,
  type AlertMetric,
  type AlertStatus,
  type ThresholdLevel,
} from './alert-rule.model.js';
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

/** A place on the dashboard's heatmap page: what an evaluation looked at, or a build's cell (CLI). */
export type HeatmapPagePlace = EvaluatedPlace & {
  /** Only this build's events (the page's build filter, the API's `buildId`). */
  buildId?: string | undefined;
  /** A cell centre the page outlines and reads out on arrival. */
  focus?: { x: number; y: number } | undefined;
};

/**
 * The dashboard's heatmap page at a place, the one builder of it on the server side (alert
 * notifications and history, the CLI's perf-diff):
 * `{app_origin}/projects/{projectId}/heatmap?mapId={map's own id}&cellSize=…&days=…&metric=…`,
 * then `&buildId=…` and `&focus=x,y` when given. mapId is the user-specified identifier, as in
 * GET /v1/projects/{id}/heatmap. A cell size the page does not offer is left out (the page uses
 * its default) and a longer period becomes its longest, as the page itself would read them.
 * NOTE: the dashboard builds the same address in the browser (services/dashboard/src/heatmap/
 * heatmap-link.ts); services/cli/src/api/dashboard-links.test.ts checks that both agree.
 */
export function heatmapDashboardUrl(appOrigin: string, input: HeatmapPagePlace): string {
  const url = new URL(`/projects/${encodeURIComponent(input.projectId)}/heatmap`, appOrigin);
  url.searchParams.set('mapId', input.mapId);
  if ((ALERT_CELL_SIZES as readonly number[]).includes(input.cellSize))
    url.searchParams.set('cellSize', String(input.cellSize));
  const days = (ALERT_EVALUATION_DAYS as readonly number[]).includes(input.days)
    ? input.days
    : ALERT_EVALUATION_DAYS.at(-1)!;
  url.searchParams.set('days', String(days));
  url.searchParams.set('metric', input.metric);
  if (input.buildId) url.searchParams.set('buildId', input.buildId);
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
