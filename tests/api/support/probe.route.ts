import { z } from 'zod';
import { sql } from '@framedeck/clickhouse';
import { problems } from '@framedeck/problem';
import { defineRoute } from '../../../services/api/src/http/route.js';
import { API_ROUTES } from '../../../services/api/src/routes/index.js';

/**
 * Test-only endpoints that exercise framework features no shipped route uses yet
 * (X-Project-Id, a project named in a body, data:admin, thrown errors). Added with
 * `startApi({ routes: WITH_PROBES })`.
 */
const Echo = z.object({ projectId: z.uuid() });

export const PROBE_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/v1/probe/header',
    operationId: 'probeHeader',
    summary: 'X-Project-Id probe',
    tag: 'Probe',
    auth: { scope: 'analytics:read' },
    project: 'header',
    response: { description: 'The checked project.', data: Echo },
    handler: async ({ projectId }) => ({ projectId }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/probe/body',
    operationId: 'probeBody',
    summary: 'Project-in-body probe (like POST /v1/query)',
    tag: 'Probe',
    auth: { scope: 'analytics:read' },
    request: { body: z.object({ project_id: z.uuid(), note: z.string().max(10).optional() }) },
    response: { description: 'The checked project.', data: Echo },
    handler: async ({ body, requireProject }) => ({ projectId: requireProject(body.project_id) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/probe/admin',
    operationId: 'probeAdmin',
    summary: 'data:admin probe',
    tag: 'Probe',
    auth: { scope: 'data:admin' },
    response: { description: 'Allowed.', data: z.object({ ok: z.boolean() }) },
    handler: async () => ({ ok: true }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/probe/fail',
    operationId: 'probeFail',
    summary: 'Throws',
    tag: 'Probe',
    auth: { scope: null },
    request: { query: z.object({ kind: z.enum(['conflict', 'crash', 'postgres', 'clickhouse']) }) },
    errors: [409],
    response: { description: 'Never.', data: z.object({}) },
    handler: async ({ query, services }) => {
      if (query.kind === 'conflict') throw problems.conflict('Already exists.');
      if (query.kind === 'crash') {
        throw new Error('SELECT secret FROM internal.db-7.framedeck.internal failed at /srv/app.js:12');
      }
      if (query.kind === 'postgres') await services.pool.query('SELECT 1');
      if (query.kind === 'clickhouse') await services.clickhouse.rows(sql`SELECT 1`);
      return {};
    },
  }),
];

export const WITH_PROBES = [...API_ROUTES, ...PROBE_ROUTES];
