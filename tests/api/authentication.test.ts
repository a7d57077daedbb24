import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { FakeBearerVerifier } from './support/fake-bearer-verifier.js';
import { startApi, type TestApi } from './support/api-harness.js';
import { OpenApiValidator } from './support/openapi-validator.js';
import { WITH_PROBES } from './support/probe.route.js';

const verifier = new FakeBearerVerifier();
let api: TestApi;
let noVerifier: TestApi;
let validator: OpenApiValidator;
let tenant: BootstrapResult;
let other: BootstrapResult;

beforeAll(async () => {
  api = await startApi({ bearerVerifier: verifier, routes: WITH_PROBES });
  noVerifier = await startApi();
  validator = new OpenApiValidator(api.api.openApiDocument);
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' });
  other = await bootstrapTenant(api.pool, { plan: 'pro' });
  verifier.tokens.set('token-read', {
    tenantId: tenant.tenantId,
    projectIds: [tenant.projectId],
    scopes: ['analytics:read'],
  });
  verifier.tokens.set('token-other-tenant', {
    tenantId: other.tenantId,
    projectIds: [other.projectId],
    scopes: ['analytics:read', 'resources:write'],
  });
  // A verifier bug must not hand out more than OAuth may grant.
  verifier.tokens.set('token-overreaching', {
    tenantId: tenant.tenantId,
    projectIds: [tenant.projectId],
    scopes: ['analytics:read', 'data:admin', 'events:write'],
  });
});
afterAll(async () => {
  await api.close();
  await noVerifier.close();
});

describe('API keys', () => {
  it.each([
    ['missing', {}],
    ['unknown', { key: `fd_${'A'.repeat(43)}` }],
    ['malformed', { key: 'not a key; DROP TABLE api_keys' }],
    ['empty', { key: '' }],
  ])('%s key → 401', async (_name, init) => {
    const res = await api.request('/v1/projects', init);
    validator.expectProblem(res, 401);
    expect(res.body.error_category).toBe('authentication');
  });

  it('a deactivated key stops working at once on the instance that deactivated it', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'pro' });
    expect((await api.request('/v1/projects', { key: t.keys.read })).status).toBe(200);
    const keys = await api.request(`/v1/projects/${t.projectId}/keys`, { key: t.keys.full });
    const readKey = keys.body.data.find((k: { preset: string }) => k.preset === 'read');
    const off = await api.request(`/v1/projects/${t.projectId}/keys/${readKey.id}`, {
      key: t.keys.full,
      method: 'DELETE',
    });
    expect(off.status).toBe(200);
    validator.expectProblem(await api.request('/v1/projects', { key: t.keys.read }), 401);
  });
});

describe('bearer tokens', () => {
  it('are accepted through the verifier seam, with the grant as principal', async () => {
    const res = await api.request('/v1/projects', { bearer: 'token-read' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([tenant.projectId]);
  });

  it('unknown token → 401; no verifier configured → 401 even for a token that would verify', async () => {
    validator.expectProblem(await api.request('/v1/projects', { bearer: 'nope' }), 401);
    validator.expectProblem(await noVerifier.request('/v1/projects', { bearer: 'token-read' }), 401);
    validator.expectProblem(
      await api.request('/v1/projects', { headers: { authorization: 'Basic dXNlcjpwYXNz' } }),
      401,
    );
  });

  it('never carry scopes OAuth cannot grant, whatever the verifier says', async () => {
    const admin = await api.request('/v1/probe/admin', { bearer: 'token-overreaching' });
    validator.expectProblem(admin, 403); // data:admin was dropped
    expect(admin.body.detail).toMatch(/OAuth tokens never hold it/);
    expect((await api.request('/v1/probe/admin', { key: tenant.keys.full })).status).toBe(200);
  });

  it('cannot manage API keys, even with resources:write (no long-lived key from a revocable grant)', async () => {
    verifier.tokens.set('token-write', {
      tenantId: tenant.tenantId,
      projectIds: [tenant.projectId],
      scopes: ['analytics:read', 'resources:write'],
    });
    const keysPath = `/v1/projects/${tenant.projectId}/keys`;
    const res = await api.request(keysPath, { bearer: 'token-write', method: 'POST', json: { preset: 'read' } });
    validator.expectProblem(res, 403);
    expect(res.body.detail).toMatch(/OAuth tokens cannot manage API keys/);
    validator.expectProblem(await api.request(keysPath, { bearer: 'token-write' }), 403);
  });

  it("reach only the token's consented projects", async () => {
    const res = await api.request(`/v1/projects/${tenant.projectId}/status`, { bearer: 'token-other-tenant' });
    validator.expectProblem(res, 404);
  });

  it('are refused by whoami (API key only), even when valid', async () => {
    const res = await api.request('/v1/whoami', { bearer: 'token-read' });
    validator.expectProblem(res, 401);
    expect(res.body.detail).toMatch(/API key/);
  });
});

describe('header precedence', () => {
  it('X-API-Key wins over a bearer token of another tenant', async () => {
    const res = await api.request('/v1/projects', { key: tenant.keys.read, bearer: 'token-other-tenant' });
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([tenant.projectId]);
  });

  it('an invalid X-API-Key is a 401 even next to a valid bearer token (no silent fallback)', async () => {
    validator.expectProblem(
      await api.request('/v1/projects', { key: `fd_${'B'.repeat(43)}`, bearer: 'token-read' }),
      401,
    );
  });

  it('the key decides the scopes: an ingest key next to a read token is refused', async () => {
    validator.expectProblem(await api.request('/v1/projects', { key: tenant.keys.ingest, bearer: 'token-read' }), 403);
  });

  it('whoami answers for the key when both are sent', async () => {
    const res = await api.request('/v1/whoami', { key: tenant.keys.ingest, bearer: 'token-read' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ projectId: tenant.projectId, scopes: ['events:write'] });
  });
});

it('no answer reveals whether an id exists in another tenant', async () => {
  const elsewhere = await api.request(`/v1/projects/${other.projectId}/status`, { key: tenant.keys.read });
  const nowhere = await api.request(`/v1/projects/${randomUUID()}/status`, { key: tenant.keys.read });
  validator.expectProblem(elsewhere, 404);
  expect(elsewhere.text).toBe(nowhere.text);
});
