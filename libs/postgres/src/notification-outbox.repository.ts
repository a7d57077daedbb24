import type { Queryable } from './queryable.js';

/**
 * Records a notification and one pending delivery per channel of the rule. Called inside the
 * transaction that records the evaluation deciding it (the outbox pattern).
 */
export async function insertAlertNotification(
  db: Queryable,
  input: {
    id: string;
    projectId: string;
    ruleId: string;
    evaluationId: string;
    kind: 'triggered' | 'resolved';
    payload: unknown;
    createdAt: Date;
  },
): Promise<void> {
  await db.query(
    `WITH notification AS (
       INSERT INTO alert_notifications (id, project_id, rule_id, evaluation_id, kind, payload, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, rule_id)
     INSERT INTO notification_deliveries (notification_id, channel_id, next_attempt_at)
     SELECT notification.id, c.channel_id, $7 FROM notification JOIN alert_rule_channels c ON c.rule_id = notification.rule_id`,
    [
      input.id,
      input.projectId,
      input.ruleId,
      input.evaluationId,
      input.kind,
      JSON.stringify(input.payload),
      input.createdAt,
    ],
  );
}

export type LeasedDelivery = {
  id: string;
  notificationId: string;
  /** Counting this one: the claim counts the attempt, so a crash mid-send still uses one up. */
  attempt: number;
  payload: unknown;
  channel: { id: string; type: 'webhook' | 'slack'; url: string; secret: string | null };
};

/** Claims due pending deliveries, leased to `leaseToken` until now + leaseMs (SKIP LOCKED). */
export async function claimDueDeliveries(
  db: Queryable,
  input: { now: Date; leaseToken: string; leaseMs: number; limit: number },
): Promise<LeasedDelivery[]> {
  const { rows } = await db.query<LeasedDelivery>(
    `WITH due AS (
       SELECT id FROM notification_deliveries
        WHERE status = 'pending' AND next_attempt_at <= $1::timestamptz
          AND (lease_expires_at IS NULL OR lease_expires_at <= $1::timestamptz)
        ORDER BY next_attempt_at
        LIMIT $4
        FOR UPDATE SKIP LOCKED),
     claimed AS (
       UPDATE notification_deliveries d
          SET lease_token = $2, lease_expires_at = $1::timestamptz + $3::int * interval '1 millisecond',
              attempts = d.attempts + 1, last_attempt_at = $1::timestamptz
         FROM due WHERE d.id = due.id
       RETURNING d.id, d.notification_id, d.channel_id, d.attempts)
     SELECT claimed.id, claimed.notification_id AS "notificationId", claimed.attempts AS attempt, n.payload,
            json_build_object('id', c.id, 'type', c.type, 'url', c.url, 'secret', c.secret) AS channel
       FROM claimed
       JOIN alert_notifications n ON n.id = claimed.notification_id
       JOIN notification_channels c ON c.id = claimed.channel_id`,
    [input.now, input.leaseToken, input.leaseMs, input.limit],
  );
  return rows;
}

export type DeliveryOutcome =
  | { status: 'delivered'; statusCode: number | null; at: Date }
  | { status: 'failed'; statusCode: number | null; error: string }
  | { status: 'pending'; statusCode: number | null; error: string; nextAttemptAt: Date };

/** Stores an attempt's outcome, only while `leaseToken` still holds the delivery. */
export async function recordDeliveryOutcome(
  db: Queryable,
  deliveryId: string,
  leaseToken: string,
  outcome: DeliveryOutcome,
): Promise<void> {
  await db.query(
    `UPDATE notification_deliveries SET
       status = $3, last_status_code = $4, last_error = $5,
       next_attempt_at = COALESCE($6, next_attempt_at), delivered_at = $7,
       lease_token = NULL, lease_expires_at = NULL
     WHERE id = $1 AND lease_token = $2`,
    [
      deliveryId,
      leaseToken,
      outcome.status,
      outcome.statusCode,
      outcome.status === 'delivered' ? null : outcome.error,
      outcome.status === 'pending' ? outcome.nextAttemptAt : null,
      outcome.status === 'delivered' ? outcome.at : null,
    ],
  );
}
