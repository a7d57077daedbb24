import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, createProjectWithKeys, type BootstrapResult } from '@framedeck/accounts';
import { waitFor } from '../support/wait.js';
import { startIdentityApi, type IdentityApi } from './support/identity-harness.js';
import { apiGet, authorizeCode, exchangeCode, pkce, refresh, registerClient } from './support/oauth-flow.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON of any shape; tests assert on it
type Json = any;

let api: IdentityApi;
let tenant: BootstrapResult;
let projectB: string;

beforeAll(async () => {
  api = await startIdentityApi();
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' });
  projectB = (await createProjectWithKeys(api.pool, { tenantId: tenant.tenantId, name: 'Second game' })).projectId;
});
afterAll(() => api.close());

async function session(user = tenant.user) {
  const res = await fetch(`${api.baseUrl}/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  const body = (await res.json()) as Json;
  return { cookie: res.headers.getSetCookie()[0]!.split(';')[0]!, csrf: body.data.csrfToken as string };
}

async function authorizedApps(cookie: string) {
  const res = await fetch(`${api.baseUrl}/v1/account/authorized-apps`, { headers: { cookie } });
  return { status: res.status, body: (await res.json()) as Json };
}

async function authorize(name: string, scope: string, projects: string[]) {
  const client = await registerClient(api.origin, { client_name: name });
  const { verifier, challenge } = pkce();
  const { code } = await authorizeCode(api.origin, {
    clientId: client.clientId,
    user: tenant.user,
    projects,
    challenge,
    scope,
  });
  const tokens = await exchangeCode(api.origin, { clientId: client.clientId, code: code!, verifier });
  return { clientId: client.clientId, tokens: tokens.body };
}

describe('authorized apps (dashboard settings)', () => {
  it('lists each app with its name, scopes, projects, creation and last use', async () => {
    const app = await authorize('Grafana plugin', 'analytics:read resources:write', [tenant.projectId, projectB]);
    const { cookie } = await session();
    const before = (await authorizedApps(cookie)).body.data.find(
      (a: { clientId: string }) => a.clientId === app.clientId,
    );
    expect(before).toMatchObject({
      clientName: 'Grafana plugin',
      redirectHosts: ['127.0.0.1:53682'],
      scopes: ['analytics:read', 'resources:write'],
      lastUsedAt: null,
    });
    expect(before.projects.map((p: { id: string }) => p.id).sort()).toEqual([tenant.projectId, projectB].sort());
    expect(Date.parse(before.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    expect((await apiGet(api.origin, '/v1/projects', app.tokens.access_token)).status).toBe(200);
    await waitFor(
      async () => {
        const listed = (await authorizedApps(cookie)).body.data.find(
          (a: { clientId: string }) => a.clientId === app.clientId,
        );
        return listed.lastUsedAt !== null;
      },
      { timeoutMs: 5_000, what: 'lastUsedAt to be recorded' },
    );
  });

  it('revoking an app kills its access and refresh tokens at once', async () => {
    const app = await authorize('Revoked tool', 'analytics:read', [tenant.projectId]);
    expect((await apiGet(api.origin, '/v1/projects', app.tokens.access_token)).status).toBe(200);
    const { cookie, csrf } = await session();
    const path = `${api.baseUrl}/v1/account/authorized-apps/${encodeURIComponent(app.clientId)}`;

    expect((await fetch(path, { method: 'DELETE', headers: { cookie } })).status).toBe(403); // CSRF
    const revoked = await fetch(path, { method: 'DELETE', headers: { cookie, 'x-csrf-token': csrf } });
    expect(revoked.status).toBe(200);

    expect((await apiGet(api.origin, '/v1/projects', app.tokens.access_token)).status).toBe(401);
    expect(
      (await refresh(api.origin, { clientId: app.clientId, refreshToken: app.tokens.refresh_token })).body.error,
    ).toBe('invalid_grant');
    const listed = (await authorizedApps(cookie)).body.data.map((a: { clientId: string }) => a.clientId);
    expect(listed).not.toContain(app.clientId);
    expect((await fetch(path, { method: 'DELETE', headers: { cookie, 'x-csrf-token': csrf } })).status).toBe(404);
  });

  it('are a signed-in user’s own: API keys, bearer tokens and other users get nothing', async () => {
    const app = await authorize('Private tool', 'analytics:read', [tenant.projectId]);
    const byKey = await fetch(`${api.baseUrl}/v1/account/authorized-apps`, {
      headers: { 'x-api-key': tenant.keys.full! },
    });
    expect(byKey.status).toBe(401);
    expect((await apiGet(api.origin, '/v1/account/authorized-apps', app.tokens.access_token)).status).toBe(401);

    const stranger = await bootstrapTenant(api.pool, { plan: 'pro' });
    const other = await session(stranger.user);
    expect((await authorizedApps(other.cookie)).body.data).toEqual([]);
    const attempt = await fetch(`${api.baseUrl}/v1/account/authorized-apps/${encodeURIComponent(app.clientId)}`, {
      method: 'DELETE',
      headers: { cookie: other.cookie, 'x-csrf-token': other.csrf },
    });
    expect(attempt.status).toBe(404);
    expect((await apiGet(api.origin, '/v1/projects', app.tokens.access_token)).status).toBe(200);
  });

  it('a project removed from the tenant is no longer reachable with the token', async () => {
    const doomed = (await createProjectWithKeys(api.pool, { tenantId: tenant.tenantId, name: 'Doomed game' }))
      .projectId;
    const app = await authorize('Doomed tool', 'analytics:read', [doomed]);
    expect((await apiGet(api.origin, `/v1/projects/${doomed}/status`, app.tokens.access_token)).status).toBe(200);
    await api.pool.query('DELETE FROM projects WHERE id = $1', [doomed]);
    expect((await apiGet(api.origin, '/v1/projects', app.tokens.access_token)).status).toBe(401);
  });
});
