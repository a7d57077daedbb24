import { erasureProgress, startErasure, type ErasureTarget } from '@framedeck/analytics';
import type { ClickHouseWriter } from '@framedeck/clickhouse';
import {
  advanceErasureRound,
  createErasureJob,
  finishErasureJob,
  getErasureJob,
  listRunningErasureJobs,
  type ErasureJob,
  type Pool,
} from '@framedeck/postgres';

export type ErasureJobView = {
  jobId: string;
  status: 'running' | 'done';
  playerCount: number;
  round: number;
  createdAt: string;
  finishedAt: string | null;
};

const view = (job: ErasureJob): ErasureJobView => ({
  jobId: job.id,
  status: job.status,
  playerCount: job.playerCount,
  round: job.round,
  createdAt: job.createdAt.toISOString(),
  finishedAt: job.finishedAt?.toISOString() ?? null,
});

const targetOf = (job: ErasureJob): ErasureTarget => ({
  projectId: job.projectId,
  playerIds: job.playerIds,
  jobId: job.id,
});

/** Records the job (so it can be polled even if this process stops) and starts round 1. */
export async function submitErasure(
  deps: { pool: Pool; clickhouseWriter: ClickHouseWriter },
  projectId: string,
  playerIds: readonly string[],
): Promise<ErasureJobView> {
  const job = await createErasureJob(deps.pool, projectId, playerIds);
  await startErasure(deps.clickhouseWriter, targetOf(job), job.round);
  return view(job);
}

/**
 * The job's state, advanced from what ClickHouse says: a round not started is started; a
 * finished round that left rows (events that arrived after its mutation began) starts the
 * next; a finished round with nothing left marks the job done. Any API instance can answer;
 * concurrent advances are safe (the next round starts only for the compare-and-set winner).
 */
export async function pollErasure(
  deps: { pool: Pool; clickhouseWriter: ClickHouseWriter },
  projectId: string,
  jobId: string,
): Promise<ErasureJobView | undefined> {
  const job = await getErasureJob(deps.pool, projectId, jobId);
  if (!job || job.status === 'done') return job && view(job);
  const progress = await erasureProgress(deps.clickhouseWriter, targetOf(job), job.round);
  switch (progress.state) {
    case 'not_started':
      await startErasure(deps.clickhouseWriter, targetOf(job), job.round);
      return view(job);
    case 'running':
      return view(job);
    case 'needs_round':
      // Only the poller that wins the compare-and-set starts the next round.
      if (await advanceErasureRound(deps.pool, job.id, job.round)) {
        await startErasure(deps.clickhouseWriter, targetOf(job), job.round + 1);
      }
      return view({ ...job, round: job.round + 1 });
    case 'done':
      return view((await finishErasureJob(deps.pool, job.id)) ?? job);
  }
}

/**
 * One pass over every running job, advancing each (services/api/src/workers.ts runs it
 * periodically), so a job nobody polls still reaches "done" and forgets its player ids soon
 * after ClickHouse finished. Every API instance may run it: advancing is safe concurrently.
 */
export async function sweepErasureJobs(deps: { pool: Pool; clickhouseWriter: ClickHouseWriter }): Promise<void> {
  for (const job of await listRunningErasureJobs(deps.pool)) await pollErasure(deps, job.projectId, job.id);
}
