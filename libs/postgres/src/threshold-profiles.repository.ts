import type { ThresholdValues } from '@framedeck/alerts';
import type { Queryable } from './queryable.js';

/** The hardware a profile is meant for; null = any. */
export type ThresholdProfileTarget = {
  platform: string | null;
  resolution: string | null;
  buildConfig: string | null;
  gpu: string | null;
  storage: string | null;
};

/** A stored profile: the limits the evaluation maths uses (libs/alerts), plus its identity. */
export type ThresholdProfile = ThresholdValues &
  ThresholdProfileTarget & {
    id: string;
    name: string;
    isDefault: boolean;
    createdAt: Date;
  };

/** What a profile is created with (everything but identity). */
export type ThresholdProfileFields = { name: string } & ThresholdValues & ThresholdProfileTarget;

/** Column list shared with the evaluator's rule query (`tp` is the profile's alias). */
export const THRESHOLD_COLUMNS = `tp.fps_good AS "fpsGood", tp.fps_warn AS "fpsWarn",
  tp.frame_time_good_ms AS "frameTimeGoodMs", tp.frame_time_warn_ms AS "frameTimeWarnMs",
  tp.gpu_time_good_ms AS "gpuTimeGoodMs", tp.gpu_time_warn_ms AS "gpuTimeWarnMs",
  tp.memory_good_mb AS "memoryGoodMb", tp.memory_warn_mb AS "memoryWarnMb",
  tp.p99_frame_time_good_ms AS "p99FrameTimeGoodMs", tp.p99_frame_time_warn_ms AS "p99FrameTimeWarnMs",
  tp.hitch_share_33ms_good_percent AS "hitchShare33msGoodPercent",
  tp.hitch_share_33ms_warn_percent AS "hitchShare33msWarnPercent",
  tp.hitch_share_50ms_good_percent AS "hitchShare50msGoodPercent",
  tp.hitch_share_50ms_warn_percent AS "hitchShare50msWarnPercent"`;

const PROFILE_COLUMNS = `tp.id, tp.name, tp.is_default AS "isDefault", ${THRESHOLD_COLUMNS},
  tp.platform, tp.resolution, tp.build_config AS "buildConfig", tp.gpu, tp.storage, tp.created_at AS "createdAt"`;

/** Field → column, in the order of the INSERT/UPDATE parameters below. */
const WRITABLE_COLUMNS: ReadonlyArray<[keyof ThresholdProfileFields, string]> = [
  ['name', 'name'],
  ['fpsGood', 'fps_good'],
  ['fpsWarn', 'fps_warn'],
  ['frameTimeGoodMs', 'frame_time_good_ms'],
  ['frameTimeWarnMs', 'frame_time_warn_ms'],
  ['gpuTimeGoodMs', 'gpu_time_good_ms'],
  ['gpuTimeWarnMs', 'gpu_time_warn_ms'],
  ['memoryGoodMb', 'memory_good_mb'],
  ['memoryWarnMb', 'memory_warn_mb'],
  ['p99FrameTimeGoodMs', 'p99_frame_time_good_ms'],
  ['p99FrameTimeWarnMs', 'p99_frame_time_warn_ms'],
  ['hitchShare33msGoodPercent', 'hitch_share_33ms_good_percent'],
  ['hitchShare33msWarnPercent', 'hitch_share_33ms_warn_percent'],
  ['hitchShare50msGoodPercent', 'hitch_share_50ms_good_percent'],
  ['hitchShare50msWarnPercent', 'hitch_share_50ms_warn_percent'],
  ['platform', 'platform'],
  ['resolution', 'resolution'],
  ['buildConfig', 'build_config'],
  ['gpu', 'gpu'],
  ['storage', 'storage'],
];

/** The project's profiles, its default first. (Every project has one: migration 004.) */
export async function listThresholdProfiles(db: Queryable, projectId: string): Promise<ThresholdProfile[]> {
  const { rows } = await db.query<ThresholdProfile>(
    `SELECT ${PROFILE_COLUMNS} FROM threshold_profiles tp
      WHERE tp.project_id = $1 ORDER BY tp.is_default DESC, tp.name, tp.id`,
    [projectId],
  );
  return rows;
}

export async function getThresholdProfile(
  db: Queryable,
  projectId: string,
  profileId: string,
): Promise<ThresholdProfile | undefined> {
  const { rows } = await db.query<ThresholdProfile>(
    `SELECT ${PROFILE_COLUMNS} FROM threshold_profiles tp WHERE tp.project_id = $1 AND tp.id = $2`,
    [projectId, profileId],
  );
  return rows[0];
}

export async function getDefaultThresholdProfileId(db: Queryable, projectId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM threshold_profiles WHERE project_id = $1 AND is_default`,
    [projectId],
  );
  return rows[0]?.id;
}

/** Why a write was refused by the table's constraints (the route turns these into 409/400). */
export type ThresholdProfileConflict = 'name_taken' | 'limits_out_of_order';

function conflictOf(error: unknown): ThresholdProfileConflict | undefined {
  const code = (error as { code?: string }).code;
  if (code === '23505') return 'name_taken';
  if (code === '23514') return 'limits_out_of_order';
  return undefined;
}

export async function insertThresholdProfile(
  db: Queryable,
  projectId: string,
  fields: ThresholdProfileFields,
): Promise<{ id: string } | { conflict: ThresholdProfileConflict }> {
  try {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO threshold_profiles (project_id, ${WRITABLE_COLUMNS.map(([, c]) => c).join(', ')})
       VALUES ($1, ${WRITABLE_COLUMNS.map((_, i) => `$${i + 2}`).join(', ')}) RETURNING id`,
      [projectId, ...WRITABLE_COLUMNS.map(([f]) => fields[f])],
    );
    return { id: rows[0]!.id };
  } catch (error) {
    const conflict = conflictOf(error);
    if (conflict) return { conflict };
    throw error;
  }
}

/**
 * Applies the fields present in `patch` (undefined = unchanged, null = "any" for the targets).
 * 'missing' when the project has no such profile.
 */
export async function updateThresholdProfile(
  db: Queryable,
  projectId: string,
  profileId: string,
  patch: Partial<ThresholdProfileFields>,
): Promise<'updated' | 'missing' | { conflict: ThresholdProfileConflict }> {
  const changed = WRITABLE_COLUMNS.filter(([f]) => patch[f] !== undefined);
  if (changed.length === 0) return (await getThresholdProfile(db, projectId, profileId)) ? 'updated' : 'missing';
  try {
    const result = await db.query(
      `UPDATE threshold_profiles SET ${changed.map(([, c], i) => `${c} = $${i + 3}`).join(', ')}
        WHERE project_id = $1 AND id = $2`,
      [projectId, profileId, ...changed.map(([f]) => patch[f])],
    );
    return result.rowCount === 1 ? 'updated' : 'missing';
  } catch (error) {
    const conflict = conflictOf(error);
    if (conflict) return { conflict };
    throw error;
  }
}

/**
 * Deletes a profile that no rule uses. The default profile stays (every project has one).
 */
export async function deleteThresholdProfile(
  db: Queryable,
  projectId: string,
  profileId: string,
): Promise<'deleted' | 'missing' | 'is_default' | 'in_use'> {
  const { rows } = await db.query<{ isDefault: boolean; inUse: boolean }>(
    `SELECT tp.is_default AS "isDefault",
            EXISTS (SELECT 1 FROM alert_rule_threshold_profiles p WHERE p.profile_id = tp.id)
              OR EXISTS (SELECT 1 FROM alert_rules r WHERE r.threshold_profile_id = tp.id) AS "inUse"
       FROM threshold_profiles tp WHERE tp.project_id = $1 AND tp.id = $2`,
    [projectId, profileId],
  );
  const profile = rows[0];
  if (!profile) return 'missing';
  if (profile.isDefault) return 'is_default';
  if (profile.inUse) return 'in_use';
  try {
    const result = await db.query(`DELETE FROM threshold_profiles WHERE project_id = $1 AND id = $2`, [
      projectId,
      profileId,
    ]);
    return result.rowCount === 1 ? 'deleted' : 'missing';
  } catch (error) {
    // A rule took the profile between the check and the delete.
    if ((error as { code?: string }).code === '23503') return 'in_use';
    throw error;
  }
}
