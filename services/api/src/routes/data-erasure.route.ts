import { z } from 'zod';
import { ERASURE_LIMITS } from '@framedeck/analytics';
import { problems } from '@framedeck/problem';
import { pollErasure, submitErasure } from '../project-data/erasure-jobs.service.js';
import { defineRoute } from '../http/route.js';

const ErasureJobSchema = z
  .object({
    jobId: z.uuid(),
    status: z.enum(['running', 'done']).meta({
      description:
        'done only when every ClickHouse mutation of the job has finished (system.mutations.is_done) and no event of ' +
        'those players is left in the project.',
    }),
    playerCount: z.int(),
    round: z.int().meta({
      description:
        'Deletion rounds so far: another starts when events of those players arrived after the previous began.',
    }),
    createdAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .meta({
    id: 'ErasureJob',
    description: 'The player ids themselves are not returned, and are forgotten by the service once the job is done.',
  });

export const eraseDataRoute = defineRoute({
  method: 'post',
  path: '/v1/data/erase',
  operationId: 'erasePlayerData',
  summary: 'Delete the telemetry of specified players',
  description:
    'Removes every event of these players (player_id, exact match) in the project named by X-Project-Id. Answers 202 ' +
    'with a job to poll at GET /v1/data/erase/{jobId}. Requests are coalesced: every few seconds one sweep starts one ' +
    'ClickHouse mutation per player table for all waiting requests of all tenants (asynchronous: it rewrites the ' +
    'affected data parts). Events of those players ingested later are removed by further rounds as long as the job ' +
    `runs; after it is done, new events are new data (send another request). A tenant may have at most ` +
    `${ERASURE_LIMITS.perTenant.maxRunningJobs} jobs and ${ERASURE_LIMITS.perTenant.maxRunningPlayers} players running ` +
    'at once (defaults of FRAMEDECK_API_ERASURE_MAX_JOBS_PER_TENANT and _MAX_PLAYERS_PER_TENANT): beyond that the ' +
    'request is refused with 429 and Retry-After.',
  tag: 'Data',
  auth: { scope: 'data:admin' },
  project: 'header',
  request: {
    body: z.strictObject({
      playerIds: z
        .array(z.string().min(1).max(ERASURE_LIMITS.maxPlayerIdLength))
        .min(1)
        .max(ERASURE_LIMITS.maxPlayers)
        .refine((ids) => new Set(ids).size === ids.length, { message: 'player ids must be unique' })
        .meta({
          description: `1 to ${ERASURE_LIMITS.maxPlayers} distinct player ids, each 1 to ${ERASURE_LIMITS.maxPlayerIdLength} characters.`,
        }),
    }),
  },
  response: { status: 202, description: 'The erasure job, running.', data: ErasureJobSchema },
  handler: async ({ projectId, principal, body, services }) =>
    submitErasure(
      services,
      { tenantId: principal.tenantId, projectId, playerIds: body.playerIds },
      services.config.dataLifecycle.erasureCapPerTenant,
    ),
});

export const erasureStatusRoute = defineRoute({
  method: 'get',
  path: '/v1/data/erase/{jobId}',
  operationId: 'getErasureJob',
  summary: 'Status of a player-data erasure job',
  tag: 'Data',
  auth: { scope: 'data:admin' },
  project: 'header',
  request: { params: z.object({ jobId: z.uuid() }) },
  response: { description: 'The job.', data: ErasureJobSchema },
  handler: async ({ projectId, params, services }) => {
    const job = await pollErasure(services, projectId, params.jobId);
    if (!job) throw problems.notFound('Erasure job not found.');
    return job;
  },
});
