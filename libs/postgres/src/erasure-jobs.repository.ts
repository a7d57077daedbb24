import type { Queryable } from './queryable.js';

export type ErasureJob = {
  id: string;
  projectId: string;
  /** Empty once the job is done: the ids are kept only while they are needed. */
  playerIds: string[];
  playerCount: number;
  status: 'running' | 'done';
  round: number;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
};

const JOB_COLUMNS = `id, project_id AS "projectId", player_ids AS "playerIds", player_count AS "playerCount", status,
  round, created_at AS "createdAt", updated_at AS "updatedAt", finished_at AS "finishedAt"`;

export async function createErasureJob(
  db: Queryable,
  projectId: string,
  playerIds: readonly string[],
): Promise<ErasureJob> {
  const { rows } = await db.query<ErasureJob>(
    `INSERT INTO erasure_jobs (project_id, player_ids, player_count) VALUES ($1, $2, $3) RETURNING ${JOB_COLUMNS}`,
    [projectId, playerIds, playerIds.length],
  );
  return rows[0]!;
}

export async function getErasureJob(db: Queryable, projectId: string, jobId: string): Promise<ErasureJob | undefined> {
  const { rows } = await db.query<ErasureJob>(
    `SELECT ${JOB_COLUMNS} FROM erasure_jobs WHERE project_id = $1 AND id = $2`,
    [projectId, jobId],
  );
  return rows[0];
}

/**
 * Moves a running job from `fromRound` to `fromRound + 1`. False when another poller did it
 * first (the round is the compare-and-set guard, so a round is started once).
 */
/** Jobs still running, oldest first, across projects (for the background sweep). */
export async function listRunningErasureJobs(db: Queryable, limit = 100): Promise<ErasureJob[]> {
  const { rows } = await db.query<ErasureJob>(
    `SELECT ${JOB_COLUMNS} FROM erasure_jobs WHERE status = 'running' ORDER BY created_at LIMIT $1`,
    [limit],
  );
  return rows;
}

export async function advanceErasureRound(db: Queryable, jobId: string, fromRound: number): Promise<boolean> {
  const result = await db.query(
    `UPDATE erasure_jobs SET round = round + 1, updated_at = now()
      WHERE id = $1 AND round = $2 AND status = 'running'`,
    [jobId, fromRound],
  );
  return result.rowCount === 1;
}

/** Marks the job done and forgets the player ids. */
export async function finishErasureJob(db: Queryable, jobId: string): Promise<ErasureJob | undefined> {
  const { rows } = await db.query<ErasureJob>(
    `UPDATE erasure_jobs SET status = 'done', player_ids = '{}', finished_at = now(), updated_at = now()
      WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
    [jobId],
  );
  return rows[0];
}
