import { z } from 'zod';
import { DATA_RETENTION, dataWindow } from '@framedeck/analytics';
import { queryProjectActivity, queryProjectRejections } from '@framedeck/clickhouse';
import {
  countProjectResources,
  getProject,
  getProjectRetentionDays,
  getTenant,
  listProjectsOfTenant,
} from '@framedeck/postgres';
import { problems } from '@framedeck/problem';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';

export const ProjectSchema = z
  .object({ id: z.uuid(), name: z.string(), createdAt: z.iso.datetime() })
  .meta({ id: 'Project' });

export const listProjectsRoute = defineRoute({
  method: 'get',
  path: '/v1/projects',
  operationId: 'listProjects',
  summary: 'List the projects this credential can access',
  description:
    "Projects of the credential's tenant that the credential may use: an API key sees its own " +
    'project; an OAuth token sees the projects consented to. Oldest first.',
  tag: 'Projects',
  auth: { scope: 'analytics:read' },
  response: { description: 'The projects.', data: z.array(ProjectSchema) },
  handler: async ({ principal, services }) => {
    const projects = await listProjectsOfTenant(services.pool, principal.tenantId);
    return projects
      .filter((p) => principal.projectIds.includes(p.id))
      .map((p) => ({ id: p.id, name: p.name, createdAt: p.createdAt.toISOString() }));
  },
});

const ProjectStatusSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    createdAt: z.iso.datetime(),
    tenantId: z.uuid(),
    planId: z.string(),
    events: z.object({
      last24h: z.int().meta({ description: 'Events with a timestamp in the last 24 h (or ahead of now).' }),
      last7d: z.int(),
      lastEventAt: z.iso.datetime().nullable().meta({ description: 'Timestamp of the newest event, null if none.' }),
    }),
    activePlayers24h: z.int().meta({ description: 'Distinct non-empty player_id in the last 24 h.' }),
    activeSessions24h: z.int(),
    rejectedEvents: z
      .object({
        since: z.iso.date().meta({ description: 'First UTC day counted (yesterday).' }),
        total: z.int(),
        byReason: z.array(z.object({ reason: z.string(), count: z.int() })),
      })
      .meta({
        description:
          'Events the pipeline discarded after accepting their batch, by reason. The consumer counts per ' +
          'UTC day, so this covers yesterday and today: at least the last 24 h.',
      }),
    maps: z.int(),
    activeKeys: z.int(),
    dataWindow: z
      .object({
        retentionDays: z
          .int()
          .meta({ description: "Days raw events are kept (the project's setting, else its plan's)." }),
        oldestRetainedDay: z.iso.date().meta({ description: 'First UTC day of raw events still kept.' }),
        rollupMonths: z.int().meta({ description: 'Months the daily rollups are kept.' }),
      })
      .meta({
        description:
          'The data window: events older than the retention are dropped by the engine (a week at a time), and ' +
          'raw SQL reads only this window.',
      }),
  })
  .meta({ id: 'ProjectStatus' });

export const projectStatusRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/status',
  operationId: 'getProjectStatus',
  summary: 'Project details and KPIs',
  description: 'Events (24 h, 7 d, newest), active players and sessions, rejected events by reason, maps, active keys.',
  tag: 'Projects',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: { params: ProjectPathParams },
  response: { description: 'The project and its KPIs.', data: ProjectStatusSchema },
  handler: async ({ projectId, principal, services }) => {
    const since = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const [project, tenant, counts, activity, rejections, retentionDays] = await Promise.all([
      getProject(services.pool, projectId),
      getTenant(services.pool, principal.tenantId),
      countProjectResources(services.pool, projectId),
      queryProjectActivity(services.clickhouse, projectId),
      queryProjectRejections(services.clickhouse, projectId, since),
      getProjectRetentionDays(services.pool, projectId),
    ]);
    // A consented project deleted since the token was issued.
    if (!project || !tenant || project.tenantId !== principal.tenantId) throw problems.notFound('Project not found.');
    return {
      id: project.id,
      name: project.name,
      createdAt: project.createdAt.toISOString(),
      tenantId: project.tenantId,
      planId: tenant.planId,
      events: {
        last24h: activity.events24h,
        last7d: activity.events7d,
        lastEventAt: activity.lastEventAt?.toISOString() ?? null,
      },
      activePlayers24h: activity.activePlayers24h,
      activeSessions24h: activity.activeSessions24h,
      rejectedEvents: {
        since,
        total: rejections.reduce((sum, r) => sum + r.count, 0),
        byReason: rejections,
      },
      maps: counts.maps,
      activeKeys: counts.activeKeys,
      dataWindow: dataWindow(retentionDays ?? DATA_RETENTION.defaultRawDays, new Date()),
    };
  },
});
