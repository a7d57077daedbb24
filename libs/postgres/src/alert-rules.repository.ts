import type { Queryable } from './queryable.js';

/** The fields a rule is created or updated with (spec: "Alert rule (as listed)" names). */
export type AlertRuleFields = {
  name: string;
  mapId: string;
  /**
   * The rule's threshold profiles, in order; at least one. The first is the rule's primary
   * profile (alert_rules.threshold_profile_id, listed as thresholdProfileId).
   */
  thresholdProfileIds: string[];
  metric: string;
  thresholdLevel: string;
  failPercentage: number;
  evaluationDays: number;
  cellSize: number;
  cooldownMinutes: number;
  isActive: boolean;
  channelIds: string[];
};

/** Spec: "Alert rule (as listed)". */
export type AlertRuleListing = Omit<AlertRuleFields, 'channelIds'> & {
  id: string;
  mapName: string | null;
  thresholdProfileId: string;
  thresholdProfileName: string | null;
  createdAt: Date;
  latestStatus: 'triggered' | 'resolved' | null;
  channelIds: string[];
};

const LISTING_QUERY = `
  SELECT r.id, r.name, r.map_id AS "mapId", m.name AS "mapName",
         r.threshold_profile_id AS "thresholdProfileId", tp.name AS "thresholdProfileName",
         r.metric, r.threshold_level AS "thresholdLevel", r.fail_percentage AS "failPercentage",
         r.evaluation_days AS "evaluationDays", r.cell_size AS "cellSize",
         r.cooldown_minutes AS "cooldownMinutes", r.is_active AS "isActive", r.created_at AS "createdAt",
         s.last_status AS "latestStatus",
         ARRAY(SELECT c.channel_id::text FROM alert_rule_channels c WHERE c.rule_id = r.id ORDER BY c.channel_id)
           AS "channelIds",
         ARRAY(SELECT p.profile_id::text FROM alert_rule_threshold_profiles p WHERE p.rule_id = r.id
                ORDER BY p.position) AS "thresholdProfileIds"
    FROM alert_rules r
    LEFT JOIN maps m ON m.id = r.map_id AND m.project_id = r.project_id
    LEFT JOIN threshold_profiles tp ON tp.id = r.threshold_profile_id
    LEFT JOIN alert_rule_state s ON s.rule_id = r.id`;

/** Every rule of the project, disabled ones included, newest first. */
export async function listAlertRules(db: Queryable, projectId: string): Promise<AlertRuleListing[]> {
  const { rows } = await db.query<AlertRuleListing>(
    `${LISTING_QUERY} WHERE r.project_id = $1 ORDER BY r.created_at DESC, r.id`,
    [projectId],
  );
  return rows;
}

export async function getAlertRule(
  db: Queryable,
  projectId: string,
  ruleId: string,
): Promise<AlertRuleListing | undefined> {
  const { rows } = await db.query<AlertRuleListing>(`${LISTING_QUERY} WHERE r.project_id = $1 AND r.id = $2`, [
    projectId,
    ruleId,
  ]);
  return rows[0];
}

/**
 * Which of the given references do not belong to the project (a map, a profile, channels of
 * another project look exactly like ones that do not exist).
 */
export async function findForeignAlertReferences(
  db: Queryable,
  projectId: string,
  refs: { mapId?: string; thresholdProfileIds?: readonly string[]; channelIds?: readonly string[] },
): Promise<Array<'mapId' | 'thresholdProfileIds' | 'channelIds'>> {
  const channelIds = [...new Set(refs.channelIds ?? [])];
  const profileIds = [...new Set(refs.thresholdProfileIds ?? [])];
  const { rows } = await db.query<{ mapOk: boolean; profilesFound: number; channelsFound: number }>(
    `SELECT ($2::uuid IS NULL OR EXISTS (SELECT 1 FROM maps WHERE id = $2 AND project_id = $1)) AS "mapOk",
            (SELECT count(*) FROM threshold_profiles WHERE project_id = $1 AND id = ANY($3::uuid[]))::int
              AS "profilesFound",
            (SELECT count(*) FROM notification_channels WHERE project_id = $1 AND id = ANY($4::uuid[]))::int
              AS "channelsFound"`,
    [projectId, refs.mapId ?? null, profileIds, channelIds],
  );
  const row = rows[0]!;
  const foreign: Array<'mapId' | 'thresholdProfileIds' | 'channelIds'> = [];
  if (!row.mapOk) foreign.push('mapId');
  if (row.profilesFound !== profileIds.length) foreign.push('thresholdProfileIds');
  if (row.channelsFound !== channelIds.length) foreign.push('channelIds');
  return foreign;
}

function primaryProfile(ids: readonly string[]): string {
  if (ids.length === 0) throw new Error('a rule needs at least one threshold profile');
  return ids[0]!;
}

/** Inserts the rule, its channel links and its evaluator state (due at once) in one statement. */
export async function insertAlertRule(db: Queryable, projectId: string, fields: AlertRuleFields): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `WITH rule AS (
       INSERT INTO alert_rules (project_id, name, map_id, threshold_profile_id, metric, threshold_level,
                                fail_percentage, evaluation_days, cell_size, cooldown_minutes, is_active)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id, project_id),
     links AS (
       INSERT INTO alert_rule_channels (project_id, rule_id, channel_id)
       SELECT rule.project_id, rule.id, channel_id FROM rule, unnest($12::uuid[]) AS channel_id),
     profiles AS (
       INSERT INTO alert_rule_threshold_profiles (project_id, rule_id, profile_id, position)
       SELECT rule.project_id, rule.id, p.id, p.position - 1
         FROM rule, unnest($13::uuid[]) WITH ORDINALITY AS p(id, position)),
     state AS (INSERT INTO alert_rule_state (rule_id) SELECT id FROM rule)
     SELECT id FROM rule`,
    [
      projectId,
      fields.name,
      fields.mapId,
      primaryProfile(fields.thresholdProfileIds),
      fields.metric,
      fields.thresholdLevel,
      fields.failPercentage,
      fields.evaluationDays,
      fields.cellSize,
      fields.cooldownMinutes,
      fields.isActive,
      [...new Set(fields.channelIds)],
      [...new Set(fields.thresholdProfileIds)],
    ],
  );
  return rows[0]!.id;
}

/**
 * Applies the given fields (absent = unchanged; channelIds replaces the whole set) and makes
 * the rule due at once, so a changed rule is re-evaluated on the evaluator's next tick.
 * Returns false when the project has no such rule.
 */
export async function updateAlertRule(
  db: Queryable,
  projectId: string,
  ruleId: string,
  patch: Partial<AlertRuleFields>,
): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    `WITH rule AS (
       UPDATE alert_rules SET
         name = COALESCE($3, name), map_id = COALESCE($4, map_id),
         threshold_profile_id = COALESCE($5, threshold_profile_id), metric = COALESCE($6, metric),
         threshold_level = COALESCE($7, threshold_level), fail_percentage = COALESCE($8, fail_percentage),
         evaluation_days = COALESCE($9, evaluation_days), cell_size = COALESCE($10, cell_size),
         cooldown_minutes = COALESCE($11, cooldown_minutes), is_active = COALESCE($12, is_active),
         updated_at = now()
       WHERE id = $2 AND project_id = $1 RETURNING id, project_id),
     unlinked AS (
       DELETE FROM alert_rule_channels c USING rule
        WHERE $13::uuid[] IS NOT NULL AND c.rule_id = rule.id AND c.channel_id <> ALL($13::uuid[])),
     linked AS (
       INSERT INTO alert_rule_channels (project_id, rule_id, channel_id)
       SELECT rule.project_id, rule.id, channel_id FROM rule, unnest($13::uuid[]) AS channel_id
       ON CONFLICT DO NOTHING),
     unlinked_profiles AS (
       DELETE FROM alert_rule_threshold_profiles p USING rule
        WHERE $14::uuid[] IS NOT NULL AND p.rule_id = rule.id AND p.profile_id <> ALL($14::uuid[])),
     linked_profiles AS (
       INSERT INTO alert_rule_threshold_profiles (project_id, rule_id, profile_id, position)
       SELECT rule.project_id, rule.id, p.id, p.position - 1
         FROM rule, unnest($14::uuid[]) WITH ORDINALITY AS p(id, position)
       ON CONFLICT (rule_id, profile_id) DO UPDATE SET position = EXCLUDED.position),
     due AS (UPDATE alert_rule_state s SET next_evaluation_at = now() FROM rule WHERE s.rule_id = rule.id)
     SELECT id FROM rule`,
    [
      projectId,
      ruleId,
      patch.name ?? null,
      patch.mapId ?? null,
      patch.thresholdProfileIds ? primaryProfile(patch.thresholdProfileIds) : null,
      patch.metric ?? null,
      patch.thresholdLevel ?? null,
      patch.failPercentage ?? null,
      patch.evaluationDays ?? null,
      patch.cellSize ?? null,
      patch.cooldownMinutes ?? null,
      patch.isActive ?? null,
      patch.channelIds ? [...new Set(patch.channelIds)] : null,
      patch.thresholdProfileIds ? [...new Set(patch.thresholdProfileIds)] : null,
    ],
  );
  return rows.length === 1;
}

/** DELETE …/alerts/{alertId}: the rule is disabled and stays listed. */
export async function disableAlertRule(db: Queryable, projectId: string, ruleId: string): Promise<boolean> {
  const result = await db.query(
    `UPDATE alert_rules SET is_active = false, updated_at = now() WHERE id = $2 AND project_id = $1`,
    [projectId, ruleId],
  );
  return result.rowCount === 1;
}
