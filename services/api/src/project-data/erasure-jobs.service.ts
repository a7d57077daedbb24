import { randomUUID } from 'node:crypto';
import { countPlayerRows, ERASURE_LIMITS, startErasureSweep, sweepMutations } from '@framedeck/analytics';
import type { ClickHouseWriter } from '@framedeck/clickhouse';
import {
  advanceErasureRound,
  claimWaitingErasureJobs,
  createErasureJobWithinCap,
  finishErasureJob,
  getErasureJob,
  listErasureJobsOfTag,
  listRunningErasureJobs,
  type ErasureJob,
  type ErasureTenantCap,
  type Pool,
} from '@framedeck/postgres';
import { problems } from '@framedeck/problem';

export type ErasureJobView = {
  jobId: string;
  status: 'running' | 'done';
  playerCount: number;
  round: number;
  createdAt: string;
  finishedAt: string | null;
};

type ErasureDeps = { pool: Pool; clickhouseWriter: ClickHouseWriter };

const view = (job: ErasureJob): ErasureJobView => ({
  jobId: job.id,
  status: job.status,
  playerCount: job.playerCount,
  round: job.round,
  createdAt: job.createdAt.toISOString(),
  finishedAt: job.finishedAt?.toISOString() ?? null,
});

/** A claimed sweep whose mutations do not exist after this long was interrupted: start them again. */
const UNSTARTED_SWEEP_GRACE_MS = 60_000;

/**
 * Records the job (so it can be polled even if this process stops); the next erasure sweep
 * starts its deletion together with every other job waiting. Refused (429) when the tenant's
 * running jobs would exceed its cap (FRAMEDECK_API_ERASURE_MAX_*_PER_TENANT).
 */
export async function submitErasure(
  deps: ErasureDeps,
  request: { tenantId: string; projectId: string; playerIds: readonly string[] },
  cap: ErasureTenantCap,
): Promise<ErasureJobView> {
  const job = await createErasureJobWithinCap(deps.pool, request, cap);
  if (job === 'limited') {
    throw problems.tooManyRequests(
      `At most ${cap.maxRunningJobs} erasure jobs and ${cap.maxRunningPlayers} players per tenant may run at once; ` +
        'retry when a job is done.',
      60,
    );
  }
  return view(job);
}

/**
 * Advances a job from what ClickHouse says: once its sweep's mutations finished, no row of its
 * players left means done; rows left (events that arrived after the mutation began) send it
 * back to wait for the next sweep (round + 1). Safe concurrently on any API instance: the
 * round is a compare-and-set guard.
 */
async function advanceJob(deps: ErasureDeps, job: ErasureJob): Promise<ErasureJob> {
  if (job.status === 'done' || job.mutationTag === null) return job;
  const mutations = await sweepMutations(deps.clickhouseWriter, job.mutationTag);
  if (mutations.state !== 'finished') return job;
  const remaining = await countPlayerRows(deps.clickhouseWriter, job);
  if (remaining === 0) return (await finishErasureJob(deps.pool, job.id)) ?? job;
  await advanceErasureRound(deps.pool, job.id, job.round);
  return { ...job, round: job.round + 1, mutationTag: null };
}

/** The job's state (advanced if its sweep is over); undefined when the project has no such job. */
export async function pollErasure(
  deps: ErasureDeps,
  projectId: string,
  jobId: string,
): Promise<ErasureJobView | undefined> {
  const job = await getErasureJob(deps.pool, projectId, jobId);
  return job && view(await advanceJob(deps, job));
}

/**
 * One erasure sweep (services/api/src/workers.ts runs it periodically):
 *  1. advances every running job whose sweep's mutations finished (done, or back to waiting);
 *  2. starts again the mutations of a sweep that claimed jobs but never started them;
 *  3. claims the waiting jobs of all tenants (up to ERASURE_LIMITS.maxPlayersPerSweep players)
 *     and starts ONE mutation per player table for all of them.
 * Every API instance may run it: a job is claimed by one sweep only.
 */
export async function sweepErasureJobs(deps: ErasureDeps, now = new Date()): Promise<void> {
  const unstarted = new Set<string>();
  for (const job of await listRunningErasureJobs(deps.pool)) {
    const advanced = await advanceJob(deps, job);
    const stale = now.getTime() - job.updatedAt.getTime() > UNSTARTED_SWEEP_GRACE_MS;
    if (advanced.status === 'running' && advanced.mutationTag !== null && stale) unstarted.add(advanced.mutationTag);
  }
  for (const tag of unstarted) {
    if ((await sweepMutations(deps.clickhouseWriter, tag)).state !== 'not_started') continue;
    await startErasureSweep(deps.clickhouseWriter, await listErasureJobsOfTag(deps.pool, tag), tag);
  }
  const tag = randomUUID();
  const claimed = await claimWaitingErasureJobs(deps.pool, tag, ERASURE_LIMITS.maxPlayersPerSweep);
  await startErasureSweep(deps.clickhouseWriter, claimed, tag);
}
