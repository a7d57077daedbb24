import { z } from 'zod';
import { listProjectsOfTenant } from '@framedeck/postgres';
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
