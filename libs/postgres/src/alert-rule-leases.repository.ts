import type { AlertRuleFields } from './alert-rules.repository.js';
import type { Queryable } from './queryable.js';
import type { ThresholdValues } from '@framedeck/alerts';
import type { MapBounds } from '@framedeck/analytics';
import { THRESHOLD_COLUMNS } from './threshold-profiles.repository.js';

/** Everything the evaluator needs to evaluate one claimed rule. */
export type LeasedAlertRule = Pick<
  AlertRuleFields,
  'name' | 'metric' | 'thresholdLevel' | 'failPercentage' | 'evaluationDays' | 'cellSize' | 'cooldownMinutes'
> & {
  id: string;
  projectId: string;
  map: MapBounds & {
    id: string;
    /** The user-specified map id, as stored in events.map_id. */
    mapId: string;
    name: string;
  };
  /** The rule's threshold profiles in the rule's order; the first is its primary profile. */
  profiles: Array<{ id: string; thresholds: ThresholdValues }>;
};

/**
 * Claims up to `limit` due, active rules whose map still exists, leasing them to `leaseToken`
 * until now + leaseMs. SKIP LOCKED lets several evaluators claim side by side without waiting
 * for each other; an expired lease (its evaluator died) is claimable again.
 */
export async function claimDueAlertRules(
  db: Queryable,
  input: { now: Date; leaseToken: string; leaseMs: number; limit: number },
): Promise<LeasedAlertRule[]> {
  const { rows } = await db.query<LeasedAlertRule>(
    `WITH due AS (
       SELECT s.rule_id FROM alert_rule_state s
         JOIN alert_rules r ON r.id = s.rule_id
         JOIN maps m ON m.id = r.map_id AND m.project_id = r.project_id
        WHERE r.is_active AND s.next_evaluation_at <= $1::timestamptz
          AND (s.lease_expires_at IS NULL OR s.lease_expires_at <= $1)
        ORDER BY s.next_evaluation_at
        LIMIT $4
        FOR UPDATE OF s SKIP LOCKED),
     claimed AS (
       UPDATE alert_rule_state s SET lease_token = $2, lease_expires_at = $1::timestamptz + $3::int * interval '1 millisecond'
         FROM due WHERE s.rule_id = due.rule_id RETURNING s.rule_id)
     SELECT r.id, r.project_id AS "projectId", r.name, r.metric, r.threshold_level AS "thresholdLevel",
            r.fail_percentage AS "failPercentage", r.evaluation_days AS "evaluationDays", r.cell_size AS "cellSize",
            r.cooldown_minutes AS "cooldownMinutes",
            json_build_object('id', m.id, 'mapId', m.map_id, 'name', m.name,
              'worldMinX', m.world_min_x, 'worldMinY', m.world_min_y,
              'worldMaxX', m.world_max_x, 'worldMaxY', m.world_max_y,
              'worldMinZ', m.world_min_z, 'worldMaxZ', m.world_max_z) AS map,
            (SELECT json_agg(json_build_object('id', tp.id, 'thresholds', (SELECT row_to_json(t) FROM
                      (SELECT ${THRESHOLD_COLUMNS}) t)) ORDER BY p.position)
               FROM alert_rule_threshold_profiles p JOIN threshold_profiles tp ON tp.id = p.profile_id
              WHERE p.rule_id = r.id) AS profiles
       FROM claimed
       JOIN alert_rules r ON r.id = claimed.rule_id
       JOIN maps m ON m.id = r.map_id`,
    [input.now, input.leaseToken, input.leaseMs, input.limit],
  );
  return rows;
}

export type LockedRuleState = {
  notifiedStatus: 'triggered' | 'resolved' | null;
  notifiedAt: Date | null;
  isActive: boolean;
};

/**
 * Locks the rule's state row for the transaction that records an evaluation, but only while
 * `leaseToken` still holds it (fencing): undefined means another evaluator took the rule over
 * (our lease expired), and nothing may be recorded.
 */
export async function lockLeasedRuleState(
  db: Queryable,
  ruleId: string,
  leaseToken: string,
): Promise<LockedRuleState | undefined> {
  const { rows } = await db.query<LockedRuleState>(
    `SELECT s.notified_status AS "notifiedStatus", s.notified_at AS "notifiedAt", r.is_active AS "isActive"
       FROM alert_rule_state s JOIN alert_rules r ON r.id = s.rule_id
      WHERE s.rule_id = $1 AND s.lease_token = $2
      FOR UPDATE OF s`,
    [ruleId, leaseToken],
  );
  return rows[0];
}

/** Ends a lease: stores the outcome (when there is one), schedules the next evaluation. */
export async function completeRuleLease(
  db: Queryable,
  input: {
    ruleId: string;
    leaseToken: string;
    nextEvaluationAt: Date;
    evaluated?: { status: 'triggered' | 'resolved'; at: Date };
    notified?: { status: 'triggered' | 'resolved'; at: Date };
  },
): Promise<void> {
  await db.query(
    `UPDATE alert_rule_state SET
       lease_token = NULL, lease_expires_at = NULL, next_evaluation_at = $3,
       last_status = COALESCE($4, last_status), last_evaluated_at = COALESCE($5, last_evaluated_at),
       notified_status = COALESCE($6, notified_status), notified_at = COALESCE($7, notified_at)
     WHERE rule_id = $1 AND lease_token = $2`,
    [
      input.ruleId,
      input.leaseToken,
      input.nextEvaluationAt,
      input.evaluated?.status ?? null,
      input.evaluated?.at ?? null,
      input.notified?.status ?? null,
      input.notified?.at ?? null,
    ],
  );
}
