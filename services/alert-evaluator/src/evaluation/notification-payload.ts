import {
  type AlertMetric,
  type AlertNotificationPayload,
  type AlertStatus,
  type CellEvaluation,
  type LinkedCell,
  type ThresholdLevel,
} from '@framedeck/alerts';
import type { LeasedAlertRule } from '@framedeck/postgres';

/** The document sent to every channel of the rule (see AlertNotificationPayload). */
export function buildNotificationPayload(input: {
  notificationId: string;
  evaluationId: string;
  kind: AlertStatus;
  rule: LeasedAlertRule;
  threshold: number;
  result: CellEvaluation;
  /** The evaluated heatmap and the worst cells with their links (linkEvaluatedCells). */
  linked: { dashboardUrl: string; worstCells: LinkedCell[] };
  evaluatedAt: Date;
}): AlertNotificationPayload {
  const { rule, result } = input;
  const metric = rule.metric as AlertMetric;
  return {
    id: input.notificationId,
    type: `alert.${input.kind}`,
    createdAt: input.evaluatedAt.toISOString(),
    projectId: rule.projectId,
    rule: {
      id: rule.id,
      name: rule.name,
      metric,
      thresholdLevel: rule.thresholdLevel as ThresholdLevel,
      threshold: input.threshold,
      failPercentage: rule.failPercentage,
      evaluationDays: rule.evaluationDays,
      cellSize: rule.cellSize,
    },
    map: { id: rule.map.id, mapId: rule.map.mapId, name: rule.map.name },
    evaluation: {
      id: input.evaluationId,
      evaluatedAt: input.evaluatedAt.toISOString(),
      status: result.status,
      failingCells: result.failingCells,
      totalCells: result.totalCells,
      failingPercentage: result.failingPercentage,
      worstCells: input.linked.worstCells,
    },
    dashboardUrl: input.linked.dashboardUrl,
  };
}
