import type { WorstCell } from '@framedeck/alerts';
import type { Queryable } from './queryable.js';

export type AlertEvaluationRecord = {
  projectId: string;
  ruleId: string;
  evaluatedAt: Date;
  status: 'triggered' | 'resolved';
  metric: string;
  thresholdLevel: string;
  threshold: number;
  /** The rule's profile that decided the evaluation (null in entries recorded before migration 006). */
  thresholdProfileId: string | null;
  failPercentage: number;
  failingCells: number;
  totalCells: number;
  failingPercentage: number;
  /** Each with the heatmap focused on it (absent in entries recorded before migration 009). */
  worstCells: Array<WorstCell & { dashboardUrl?: string }>;
  /** The dashboard's heatmap of what was evaluated (null in entries recorded before migration 009). */
  dashboardUrl: string | null;
  notificationOutcome: 'queued' | 'cooldown' | null;
};

export async function insertAlertEvaluation(db: Queryable, record: AlertEvaluationRecord): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO alert_evaluations (project_id, rule_id, evaluated_at, status, metric, threshold_level, threshold,
       fail_percentage, failing_cells, total_cells, failing_percentage, worst_cells, notification_outcome,
       threshold_profile_id, dashboard_url)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
    [
      record.projectId,
      record.ruleId,
      record.evaluatedAt,
      record.status,
      record.metric,
      record.thresholdLevel,
      record.threshold,
      record.failPercentage,
      record.failingCells,
      record.totalCells,
      record.failingPercentage,
      JSON.stringify(record.worstCells),
      record.notificationOutcome,
      record.thresholdProfileId,
      record.dashboardUrl,
    ],
  );
  return rows[0]!.id;
}

export type NotificationDeliveryView = {
  channelId: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
};

export type AlertHistoryEntry = Omit<AlertEvaluationRecord, 'projectId'> & {
  id: string;
  ruleName: string;
  notification: { id: string; kind: 'triggered' | 'resolved'; deliveries: NotificationDeliveryView[] } | null;
};

export type AlertHistoryFilter = {
  projectId: string;
  ruleId?: string;
  status?: 'triggered' | 'resolved';
  from?: Date;
  to?: Date;
  /** Keyset position: entries strictly older than this one (newest first). */
  before?: { evaluatedAt: Date; id: string };
  limit: number;
};

/** Evaluation history, newest first, with each notification and its deliveries. */
export async function listAlertHistory(db: Queryable, filter: AlertHistoryFilter): Promise<AlertHistoryEntry[]> {
  const { rows } = await db.query<AlertHistoryEntry>(
    `SELECT e.id, e.rule_id AS "ruleId", r.name AS "ruleName", e.evaluated_at AS "evaluatedAt", e.status,
            e.metric, e.threshold_level AS "thresholdLevel", e.threshold,
            e.threshold_profile_id AS "thresholdProfileId", e.fail_percentage AS "failPercentage",
            e.failing_cells AS "failingCells", e.total_cells AS "totalCells",
            e.failing_percentage AS "failingPercentage", e.worst_cells AS "worstCells",
            e.dashboard_url AS "dashboardUrl",
            e.notification_outcome AS "notificationOutcome",
            CASE WHEN n.id IS NULL THEN NULL ELSE json_build_object('id', n.id, 'kind', n.kind, 'deliveries',
              (SELECT coalesce(json_agg(json_build_object(
                 'channelId', d.channel_id, 'status', d.status, 'attempts', d.attempts,
                 'lastStatusCode', d.last_status_code, 'lastError', d.last_error,
                 'lastAttemptAt', d.last_attempt_at,
                 'nextAttemptAt', CASE WHEN d.status = 'pending' THEN d.next_attempt_at END,
                 'deliveredAt', d.delivered_at) ORDER BY d.channel_id), '[]'::json)
                 FROM notification_deliveries d WHERE d.notification_id = n.id)) END AS notification
       FROM alert_evaluations e
       JOIN alert_rules r ON r.id = e.rule_id
       LEFT JOIN alert_notifications n ON n.evaluation_id = e.id
      WHERE e.project_id = $1
        AND ($2::uuid IS NULL OR e.rule_id = $2)
        AND ($3::text IS NULL OR e.status = $3)
        AND ($4::timestamptz IS NULL OR e.evaluated_at >= $4)
        AND ($5::timestamptz IS NULL OR e.evaluated_at < $5)
        AND ($6::timestamptz IS NULL OR (e.evaluated_at, e.id) < ($6, $7::uuid))
      ORDER BY e.evaluated_at DESC, e.id DESC
      LIMIT $8`,
    [
      filter.projectId,
      filter.ruleId ?? null,
      filter.status ?? null,
      filter.from ?? null,
      filter.to ?? null,
      filter.before?.evaluatedAt ?? null,
      filter.before?.id ?? null,
      filter.limit,
    ],
  );
  return rows;
}
