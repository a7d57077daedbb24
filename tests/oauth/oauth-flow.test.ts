import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, createProjectWithKeys, type BootstrapResult } from '@framedeck/accounts';
import { startIdentityApi, type IdentityApi } from './support/identity-harness.js';
import {
  apiGet,
  authorizeCode,
  exchangeCode,
  pkce,
  refresh,
  registerClient,
  tokenRequest,
} from './support/oauth-flow.js';

let api: IdentityApi;
let tenant: BootstrapResult;
let projectB: string;

beforeAll(async () => {
  api = await startIdentityApi();
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' });
  projectB = (await createProjectWithKeys(api.pool, { tenantId: tenant.tenantId, name: 'Second game' })).projectId;
});
afterAll(() => api.close());

describe('the whole flow', () => {
  it('register → authorize with PKCE → sign in → consent → token → API call → refresh → revoke', async () => {
    const client = await registerClient(api.origin);
    expect(client.status, JSON.stringify(client.body)).toBe(201);
    expect(client.body.token_endpoint_auth_method).toBe('none');
    expect(client.body.client_secret).toBeUndefined();

    const { verifier, challenge } = pkce();
    const { code, callback } = await authorizeCode(api.origin, {
      clientId: client.clientId,
      user: tenant.user,
      projects: [tenant.projectId],
      challenge,
    });
    expect(callback.searchParams.get('state')).toBe('state-123');
    expect(callback.searchParams.get('iss')).toBe(api.origin);
    expect(code).toBeTruthy();

    const tokens = await exchangeCode(api.origin, { clientId: client.clientId, code: code!, verifier });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'analytics:read' });
    expect(tokens.body.refresh_token).toBeTruthy();
    expect(tokens.body.id_token).toBeUndefined();

    const projects = await apiGet(api.origin, '/v1/projects', tokens.body.access_token);
    expect(projects.status, projects.text).toBe(200);
    expect(projects.body.data.map((p: { id: string }) => p.id)).toEqual([tenant.projectId]);
    const status = await apiGet(api.origin, `/v1/projects/${tenant.projectId}/status`, tokens.body.access_token);
    expect(status.status, status.text).toBe(200);

    const refreshed = await refresh(api.origin, { clientId: client.clientId, refreshToken: tokens.body.refresh_token });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token);
    expect(refreshed.body.scope).toBe('analytics:read');
    expect(refreshed.body.token_type).toBe('Bearer'); // as the OpenAPI document says, not "bearer"
    expect((await apiGet(api.origin, '/v1/projects', refreshed.body.access_token)).status).toBe(200);

    const revoked = await fetch(`${api.origin}/api/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshed.body.refresh_token, client_id: client.clientId }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect((await apiGet(api.origin, '/v1/projects', refreshed.body.access_token)).status).toBe(401);
    const again = await refresh(api.origin, { clientId: client.clientId, refreshToken: refreshed.body.refresh_token });
    expect(again.body.error).toBe('invalid_grant');
    void projectB;
    void tokenRequest;
  });
});

describe('401 challenges (RFC 6750 §3, RFC 9728 §5.1)', () => {
  const challengeOf = async (headers: Record<string, string>) => {
    const res = await fetch(`${api.baseUrl}/v1/projects`, { headers });
    expect(res.status).toBe(401);
    return res.headers.get('www-authenticate') ?? '';
  };

  it('a 401 from /api/v1 carries WWW-Authenticate: Bearer with a resource_metadata URL that serves the metadata', async () => {
    const challenge = await challengeOf({});
    expect(challenge).toMatch(/^Bearer realm="[^"]+", resource_metadata="[^"]+"$/);
    const url = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
    expect(url.startsWith(`${api.origin}/.well-known/oauth-protected-resource`)).toBe(true);
    const metadata = await fetch(url);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ resource: api.baseUrl, authorization_servers: [api.origin] });
  });

  it('says error="invalid_token" when a bearer token was refused, and challenges a bad API key too', async () => {
    expect(await challengeOf({ authorization: 'Bearer not-a-token' })).toMatch(/error="invalid_token"/);
    const keyChallenge = await challengeOf({ 'x-api-key': 'fd_wrong' });
    expect(keyChallenge).toMatch(/^Bearer realm=/);
    expect(keyChallenge).not.toMatch(/invalid_token/);
  });
});
