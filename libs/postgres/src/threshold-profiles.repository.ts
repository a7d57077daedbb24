import type { ThresholdValues } from '@framedeck/alerts';
import type { Queryable } from './queryable.js';

/** A stored profile: the limits the evaluation maths uses (libs/alerts), plus its identity. */
export type ThresholdProfile = ThresholdValues & {
  id: string;
  name: string;
  isDefault: boolean;
  createdAt: Date;
};

/** Column list shared with the evaluator's rule query (`tp` is the profile's alias). */
export const THRESHOLD_COLUMNS = `tp.fps_good AS "fpsGood", tp.fps_warn AS "fpsWarn",
  tp.frame_time_good_ms AS "frameTimeGoodMs", tp.frame_time_warn_ms AS "frameTimeWarnMs",
  tp.gpu_time_good_ms AS "gpuTimeGoodMs", tp.gpu_time_warn_ms AS "gpuTimeWarnMs",
  tp.memory_good_mb AS "memoryGoodMb", tp.memory_warn_mb AS "memoryWarnMb"`;

const PROFILE_COLUMNS = `tp.id, tp.name, tp.is_default AS "isDefault", ${THRESHOLD_COLUMNS}, tp.created_at AS "createdAt"`;

/** The project's profiles, its default first. (Every project has one: migration 004.) */
export async function listThresholdProfiles(db: Queryable, projectId: string): Promise<ThresholdProfile[]> {
  const { rows } = await db.query<ThresholdProfile>(
    `SELECT ${PROFILE_COLUMNS} FROM threshold_profiles tp
      WHERE tp.project_id = $1 ORDER BY tp.is_default DESC, tp.name, tp.id`,
    [projectId],
  );
  return rows;
}

export async function getDefaultThresholdProfileId(db: Queryable, projectId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM threshold_profiles WHERE project_id = $1 AND is_default`,
    [projectId],
  );
  return rows[0]?.id;
}
