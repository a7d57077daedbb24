import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, createProjectWithKeys, type BootstrapResult } from '@framedeck/accounts';
import { startIdentityApi, type IdentityApi } from './support/identity-harness.js';

let api: IdentityApi;
let tenant: BootstrapResult;
let otherTenant: BootstrapResult;
let projectB: string;

beforeAll(async () => {
  api = await startIdentityApi();
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' });
  projectB = (await createProjectWithKeys(api.pool, { tenantId: tenant.tenantId, name: 'Second game' })).projectId;
  otherTenant = await bootstrapTenant(api.pool, { plan: 'pro' });
});
afterAll(() => api.close());

type Call = {
  method?: string;
  cookie?: string;
  csrf?: string;
  origin?: string;
  json?: unknown;
  body?: string;
  type?: string;
};

async function call(path: string, c: Call = {}) {
  const headers: Record<string, string> = {};
  if (c.cookie) headers.cookie = c.cookie;
  if (c.csrf) headers['x-csrf-token'] = c.csrf;
  if (c.origin) headers.origin = c.origin;
  let body = c.body;
  if (c.json !== undefined) body = JSON.stringify(c.json);
  if (body !== undefined) headers['content-type'] = c.type ?? 'application/json';
  const res = await fetch(`${api.baseUrl}${path}`, { method: c.method ?? 'GET', headers, body });
  const text = await res.text();
  return { res, text, body: text ? JSON.parse(text) : undefined };
}

async function signIn(user = tenant.user) {
  const answer = await call('/v1/session', { method: 'POST', json: user, origin: api.origin });
  expect(answer.res.status, answer.text).toBe(200);
  const setCookie = answer.res.headers.getSetCookie().find((c) => c.startsWith('fd_session='))!;
  return {
    setCookie,
    cookie: setCookie.split(';')[0]!,
    csrf: answer.body.data.csrfToken as string,
    data: answer.body.data,
  };
}

describe('POST /v1/session (sign in)', () => {
  it('sets an httpOnly SameSite=Lax session cookie and describes the user, tenant and projects', async () => {
    const { setCookie, data } = await signIn();
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/i); // http origin here; https origins get Secure + __Host-
    expect(data.user).toMatchObject({ email: tenant.user.email, tenantId: tenant.tenantId, planId: 'pro' });
    expect(data.user.scopes).toEqual(['analytics:read', 'resources:write', 'data:admin']);
    expect(data.projects.map((p: { id: string }) => p.id).sort()).toEqual([tenant.projectId, projectB].sort());
    expect(JSON.stringify(data)).not.toContain(tenant.user.password);
  });

  it('answers the same 401 for an unknown email and a wrong password', async () => {
    const unknown = await call('/v1/session', {
      method: 'POST',
      json: { email: `${randomUUID()}@x.local`, password: 'p' },
    });
    const wrong = await call('/v1/session', { method: 'POST', json: { email: tenant.user.email, password: 'nope' } });
    for (const answer of [unknown, wrong]) {
      expect(answer.res.status).toBe(401);
      expect(answer.body.detail).toBe('Incorrect email or password.');
      expect(answer.res.headers.getSetCookie()).toEqual([]);
    }
  });

  it('takes JSON only (a cross-site form cannot sign anyone in) and refuses a foreign Origin', async () => {
    const form = await call('/v1/session', {
      method: 'POST',
      body: new URLSearchParams(tenant.user).toString(),
      type: 'application/x-www-form-urlencoded',
    });
    expect(form.res.status).toBe(415);
    const plain = await call('/v1/session', { method: 'POST', body: JSON.stringify(tenant.user), type: 'text/plain' });
    expect(plain.res.status).toBe(415);
    const foreign = await call('/v1/session', { method: 'POST', json: tenant.user, origin: 'https://evil.example' });
    expect(foreign.res.status).toBe(403);
  });
});

describe('the session cookie as an API credential', () => {
  it('reads every project of the tenant, and nothing of another tenant', async () => {
    const { cookie } = await signIn();
    const projects = await call('/v1/projects', { cookie });
    expect(projects.res.status, projects.text).toBe(200);
    expect(projects.body.data.map((p: { id: string }) => p.id).sort()).toEqual([tenant.projectId, projectB].sort());
    expect((await call(`/v1/projects/${otherTenant.projectId}/keys`, { cookie })).res.status).toBe(404);
    expect((await call(`/v1/projects/${projectB}/keys`, { cookie })).res.status).toBe(200);
  });

  it('needs X-CSRF-Token on unsafe methods, and refuses a foreign Origin', async () => {
    const { cookie, csrf } = await signIn();
    const create = (extra: Call) =>
      call(`/v1/projects/${tenant.projectId}/keys`, {
        method: 'POST',
        cookie,
        json: { preset: 'read', name: 'ci' },
        ...extra,
      });
    const missing = await create({});
    expect(missing.res.status).toBe(403);
    expect(missing.body.detail).toContain('X-CSRF-Token');
    expect((await create({ csrf: 'A'.repeat(43) })).res.status).toBe(403);
    expect((await create({ csrf, origin: 'https://evil.example' })).res.status).toBe(403);
    const other = await signIn();
    expect((await create({ csrf: other.csrf })).res.status).toBe(403); // another session's token
    const ok = await create({ csrf, origin: api.origin });
    expect(ok.res.status, ok.text).toBe(201);
  });

  it('is not accepted by whoami (API key only)', async () => {
    const { cookie } = await signIn();
    expect((await call('/v1/whoami', { cookie })).res.status).toBe(401);
  });

  it('loses to an explicit credential: a bad API key is a 401 even with a live session', async () => {
    const { cookie } = await signIn();
    const res = await fetch(`${api.baseUrl}/v1/projects`, { headers: { cookie, 'x-api-key': `fd_${'A'.repeat(43)}` } });
    expect(res.status).toBe(401);
  });
});

describe('GET and DELETE /v1/session', () => {
  it('signs out: the session ends server-side and the cookie is cleared', async () => {
    const { cookie, csrf } = await signIn();
    expect((await call('/v1/session', { cookie })).res.status).toBe(200);
    expect((await call('/v1/session', { method: 'DELETE', cookie })).res.status).toBe(403); // no CSRF token
    const out = await call('/v1/session', { method: 'DELETE', cookie, csrf });
    expect(out.res.status).toBe(200);
    expect(out.res.headers.getSetCookie().join()).toMatch(/fd_session=;.*Expires=Thu, 01 Jan 1970/);
    expect((await call('/v1/session', { cookie })).res.status).toBe(401);
    expect((await call('/v1/projects', { cookie })).res.status).toBe(401);
  });

  it('stores only a hash of the cookie value', async () => {
    const { cookie } = await signIn();
    const value = cookie.split('=')[1]!;
    const raw = await api.pool.query(`SELECT 1 FROM dashboard_sessions WHERE id_hash = convert_to($1, 'UTF8')`, [
      value,
    ]);
    expect(raw.rowCount).toBe(0);
    const hashed = await api.pool.query(
      `SELECT 1 FROM dashboard_sessions WHERE id_hash = sha256(convert_to($1, 'UTF8'))`,
      [value],
    );
    expect(hashed.rowCount).toBe(1);
  });
});
