import { inTransaction, type Pool } from './pool.js';
import type { Queryable } from './queryable.js';

export type ErasureJob = {
  id: string;
  projectId: string;
  /** Empty once the job is done: the ids are kept only while they are needed. */
  playerIds: string[];
  playerCount: number;
  status: 'running' | 'done';
  round: number;
  /** The erasure sweep whose mutations run this job's current round; null = waiting for the next sweep. */
  mutationTag: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
};

const JOB_COLUMNS = `id, project_id AS "projectId", player_ids AS "playerIds", player_count AS "playerCount", status,
  round, mutation_tag AS "mutationTag", created_at AS "createdAt", updated_at AS "updatedAt", finished_at AS "finishedAt"`;

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

/** What one tenant may have waiting or running at once. */
export type ErasureTenantCap = { maxRunningJobs: number; maxRunningPlayers: number };

/**
 * Records a job, waiting for the next erasure sweep, unless the tenant's running jobs would then
 * exceed the cap ('limited'). The tenant's rows are locked for the check, so concurrent
 * requests of one tenant cannot both slip under it.
 */
export async function createErasureJobWithinCap(
  pool: Pool,
  input: { tenantId: string; projectId: string; playerIds: readonly string[] },
  cap: ErasureTenantCap,
): Promise<ErasureJob | 'limited'> {
  return inTransaction(pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('erasure-cap:' || $1))`, [input.tenantId]);
    const { rows: load } = await client.query<{ jobs: number; players: number }>(
      `SELECT count(*)::int AS jobs, coalesce(sum(j.player_count), 0)::int AS players
         FROM erasure_jobs j JOIN projects p ON p.id = j.project_id
        WHERE p.tenant_id = $1 AND j.status = 'running'`,
      [input.tenantId],
    );
    const { jobs, players } = load[0]!;
    if (jobs + 1 > cap.maxRunningJobs || players + input.playerIds.length > cap.maxRunningPlayers) return 'limited';
    return createErasureJob(client, input.projectId, input.playerIds);
  });
}

/**
 * Gives the waiting jobs, oldest first and up to `maxPlayers` players in all (at least one
 * job), to the sweep `tag`. A job another sweep claimed meanwhile is skipped (the UPDATE
 * re-checks mutation_tag IS NULL), so every job is in exactly one sweep.
 */
export async function claimWaitingErasureJobs(db: Queryable, tag: string, maxPlayers: number): Promise<ErasureJob[]> {
  const { rows } = await db.query<ErasureJob>(
    `WITH waiting AS (
       SELECT id, sum(player_count) OVER (ORDER BY created_at, id) AS players_so_far,
              row_number() OVER (ORDER BY created_at, id) AS position
         FROM erasure_jobs WHERE status = 'running' AND mutation_tag IS NULL
     )
     UPDATE erasure_jobs SET mutation_tag = $1, updated_at = now()
      WHERE id IN (SELECT id FROM waiting WHERE players_so_far <= $2 OR position = 1)
        AND status = 'running' AND mutation_tag IS NULL
     RETURNING ${JOB_COLUMNS}`,
    [tag, maxPlayers],
  );
  return rows;
}

/** The running jobs of one sweep (to start its mutations again if they were never started). */
export async function listErasureJobsOfTag(db: Queryable, tag: string): Promise<ErasureJob[]> {
  const { rows } = await db.query<ErasureJob>(
    `SELECT ${JOB_COLUMNS} FROM erasure_jobs WHERE mutation_tag = $1 AND status = 'running'`,
    [tag],
  );
  return rows;
}

export async function getErasureJob(db: Queryable, projectId: string, jobId: string): Promise<ErasureJob | undefined> {
  const { rows } = await db.query<ErasureJob>(
    `SELECT ${JOB_COLUMNS} FROM erasure_jobs WHERE project_id = $1 AND id = $2`,
    [projectId, jobId],
  );
  return rows[0];
}

/** Jobs still running, oldest first, across projects (for the background sweep). */
export async function listRunningErasureJobs(db: Queryable, limit = 100): Promise<ErasureJob[]> {
  const { rows } = await db.query<ErasureJob>(
    `SELECT ${JOB_COLUMNS} FROM erasure_jobs WHERE status = 'running' ORDER BY created_at LIMIT $1`,
    [limit],
  );
  return rows;
}

/**
 * Moves a running job from `fromRound` to `fromRound + 1`, waiting for the next sweep. False
 * when another poller did it first (the round is the compare-and-set guard).
 */
export async function advanceErasureRound(db: Queryable, jobId: string, fromRound: number): Promise<boolean> {
  const result = await db.query(
    `UPDATE erasure_jobs SET round = round + 1, mutation_tag = NULL, updated_at = now()
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
