import { z } from 'zod';
import { DATA_RETENTION, dataWindow } from '@framedeck/analytics';
import { queryProjectActivity, queryProjectRejections } from '@framedeck/clickhouse';
import {
  countProjectResources,
  getProject,
  getProjectRetentionDays,
  getTenant,
  listProjectsOfTenant,
  RETENTION_DAYS_CHOICES,
  setProjectRetentionDays,
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

const DataWindowSchema = z
  .object({
    retentionDays: z.int().meta({ description: "Days raw events are kept (the project's setting, else its plan's)." }),
    oldestRetainedDay: z.iso.date().meta({ description: 'First UTC day of raw events still kept.' }),
    rollupMonths: z.int().meta({ description: 'Months the daily rollups are kept.' }),
  })
  .meta({
    id: 'DataWindow',
    description:
      'The data window: events older than the retention are dropped by the engine (a week at a time), and ' +
      'raw SQL reads only this window.',
  });

const ProjectStatusSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    createdAt: z.iso.datetime(),
    tenantId: z.uuid(),
    planId: z.string(),
    events: z.object({
      last24h: z
        .int()
        .meta({ description: 'Events with a timestamp from the start of the hour 24 h ago (or ahead of now).' }),
      last7d: z.int(),
      lastEventAt: z.iso.datetime().nullable().meta({ description: 'Timestamp of the newest event, null if none.' }),
    }),
    activePlayers24h: z.int().meta({
      description:
        'Distinct non-empty player_id from the start of the hour 24 h ago (sessions likewise): exact up to 512, then HyperLogLog (standard error about 1.15 %), as unique_players insights are.',
    }),
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
    dataWindow: DataWindowSchema,
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

const ProjectSettingsBody = z.strictObject({
  rawRetentionDays: z
    .literal([...RETENTION_DAYS_CHOICES])
    .nullable()
    .meta({
      description:
        `Days this project keeps raw events: one of ${RETENTION_DAYS_CHOICES.join(', ')}; null returns to the ` +
        "plan's retention.",
    }),
});

export const updateProjectRoute = defineRoute({
  method: 'patch',
  path: '/v1/projects/{id}',
  operationId: 'updateProject',
  summary: "Change a project's data retention",
  description:
    'Sets how many days raw events of the project are kept (docs/operations.md, Retention). Events ingested from ' +
    'about a minute after the change carry the new retention and expire with it; events already stored keep the ' +
    'retention they were written with. Raw SQL (POST /v1/query) reads the new window from the next query. Rollups ' +
    'keep their 13 months. Needs data:admin: a key of another preset gets 403.',
  tag: 'Projects',
  auth: { scope: 'data:admin' },
  project: 'path',
  request: { params: ProjectPathParams, body: ProjectSettingsBody },
  response: {
    description: "The project's retention setting and its data window after the change.",
    data: z
      .object({
        id: z.uuid(),
        rawRetentionDays: z
          .int()
          .nullable()
          .meta({ description: "The project's own setting; null when it follows its plan." }),
        dataWindow: DataWindowSchema,
      })
      .meta({ id: 'ProjectSettings' }),
  },
  handler: async ({ projectId, body, services }) => {
    await setProjectRetentionDays(services.pool, projectId, body.rawRetentionDays);
    const retentionDays = await getProjectRetentionDays(services.pool, projectId);
    // A project deleted since the credential was checked.
    if (retentionDays === undefined) throw problems.notFound('Project not found.');
    return {
      id: projectId,
      rawRetentionDays: body.rawRetentionDays,
      dataWindow: dataWindow(retentionDays, new Date()),
    };
  },
});
