import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, createProjectWithKeys, type BootstrapResult } from '@framedeck/accounts';
import { startApi, type TestApi } from './support/api-harness.js';
import { OpenApiValidator } from './support/openapi-validator.js';
import { WITH_PROBES } from './support/probe.route.js';

/**
 * DECISION under test: any project the credential cannot access is a 404 with one identical
 * body, whether it belongs to another tenant, to the same tenant, or does not exist.
 */
let api: TestApi;
let validator: OpenApiValidator;
let mine: BootstrapResult;
let sibling: { projectId: string; keys: Partial<Record<string, string>> };
let foreign: BootstrapResult;
let notFoundBody: string;

beforeAll(async () => {
  api = await startApi({ routes: WITH_PROBES });
  validator = new OpenApiValidator(api.api.openApiDocument);
  mine = await bootstrapTenant(api.pool, { plan: 'pro' });
  sibling = await createProjectWithKeys(api.pool, { tenantId: mine.tenantId, name: 'Sibling game' });
  foreign = await bootstrapTenant(api.pool, { plan: 'pro' });
  notFoundBody = (await api.request(`/v1/projects/${randomUUID()}/status`, { key: mine.keys.full })).text;
});
afterAll(() => api.close());

const targets = () => [
  ['another tenant', foreign.projectId],
  ['the same tenant', sibling.projectId],
  ['nowhere', randomUUID()],
];

describe('through the path', () => {
  it.each(['status', 'keys'])(
    '/v1/projects/{id}/%s of a project the key does not hold → 404, same body',
    async (leaf) => {
      for (const [, projectId] of targets()) {
        const res = await api.request(`/v1/projects/${projectId}/${leaf}`, { key: mine.keys.full });
        validator.expectProblem(res, 404);
        expect(res.text).toBe(notFoundBody);
      }
    },
  );

  it('creating or deactivating keys in another project is refused the same way', async () => {
    for (const [, projectId] of targets()) {
      const created = await api.request(`/v1/projects/${projectId}/keys`, {
        key: mine.keys.full,
        method: 'POST',
        json: { preset: 'read' },
      });
      expect(created.text).toBe(notFoundBody);
    }
    // A key id of another tenant under my own project id: no such key here.
    const theirKeys = await api.request(`/v1/projects/${foreign.projectId}/keys`, { key: foreign.keys.full });
    const theirKeyId = theirKeys.body.data[0].id;
    const res = await api.request(`/v1/projects/${mine.projectId}/keys/${theirKeyId}`, {
      key: mine.keys.full,
      method: 'DELETE',
    });
    validator.expectProblem(res, 404);
    const still = await api.request(`/v1/projects/${foreign.projectId}/keys`, { key: foreign.keys.full });
    expect(still.body.data.find((k: { id: string }) => k.id === theirKeyId).deactivatedAt).toBeNull();
  });

  it('a malformed project id is a 400, before any lookup', async () => {
    for (const bad of ['not-a-uuid', '1', `${mine.projectId}x`, "' OR 1=1 --"]) {
      const res = await api.request(`/v1/projects/${encodeURIComponent(bad)}/status`, { key: mine.keys.full });
      validator.expectProblem(res, 400);
    }
  });
});

describe('through X-Project-Id', () => {
  it('accepts the key’s own project', async () => {
    const res = await api.request('/v1/probe/header', { key: mine.keys.read, projectId: mine.projectId });
    expect(res.body).toEqual({ success: true, data: { projectId: mine.projectId } });
  });

  it('refuses other projects with the same 404 body', async () => {
    for (const [, projectId] of targets()) {
      const res = await api.request('/v1/probe/header', { key: mine.keys.read, projectId });
      expect(res.text).toBe(notFoundBody);
    }
  });

  it('is required, and must be a UUID (400)', async () => {
    validator.expectProblem(await api.request('/v1/probe/header', { key: mine.keys.read }), 400);
    const bad = await api.request('/v1/probe/header', { key: mine.keys.read, projectId: 'abc' });
    validator.expectProblem(bad, 400);
    expect(bad.body.detail).toContain('X-Project-Id');
  });
});

describe('through the body', () => {
  it('accepts the key’s own project and refuses others with the same 404 body', async () => {
    const own = await api.request('/v1/probe/body', {
      key: mine.keys.read,
      method: 'POST',
      json: { project_id: mine.projectId },
    });
    expect(own.body.data).toEqual({ projectId: mine.projectId });
    for (const [, projectId] of targets()) {
      const res = await api.request('/v1/probe/body', {
        key: mine.keys.read,
        method: 'POST',
        json: { project_id: projectId },
      });
      expect(res.text).toBe(notFoundBody);
    }
  });
});

it('GET /v1/projects lists only what the key holds: its own project, not its siblings', async () => {
  const res = await api.request('/v1/projects', { key: mine.keys.read });
  expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([mine.projectId]);
  validator.expectDocumented(res, 'GET', '/v1/projects');
});
