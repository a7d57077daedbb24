import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, createProjectWithKeys, type BootstrapResult } from '@framedeck/accounts';
import { startIdentityApi, type IdentityApi } from './support/identity-harness.js';
import {
  apiGet,
  authorizeCode,
  Browser,
  CALLBACK,
  exchangeCode,
  pkce,
  refresh,
  registerClient,
  startAuthorization,
  tokenRequest,
} from './support/oauth-flow.js';

let api: IdentityApi;
let tenant: BootstrapResult;
let projectB: string;
let clientId: string;

beforeAll(async () => {
  api = await startIdentityApi();
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' });
  projectB = (await createProjectWithKeys(api.pool, { tenantId: tenant.tenantId, name: 'Second game' })).projectId;
  clientId = (await registerClient(api.origin)).clientId;
});
afterAll(() => api.close());

/** A fresh consent for project A only, exchanged for tokens. */
async function tokensFor(scope?: string, projects = [tenant.projectId]) {
  const { verifier, challenge } = pkce();
  const { code } = await authorizeCode(api.origin, { clientId, user: tenant.user, projects, challenge, scope });
  const tokens = await exchangeCode(api.origin, { clientId, code: code!, verifier });
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  return tokens.body as { access_token: string; refresh_token: string; scope: string };
}

describe('authorization codes', () => {
  it('are single use: a replayed code fails and revokes the tokens the first exchange issued', async () => {
    const { verifier, challenge } = pkce();
    const { code } = await authorizeCode(api.origin, {
      clientId,
      user: tenant.user,
      projects: [tenant.projectId],
      challenge,
    });
    const first = await exchangeCode(api.origin, { clientId, code: code!, verifier });
    expect(first.status).toBe(200);
    expect((await apiGet(api.origin, '/v1/projects', first.body.access_token)).status).toBe(200);

    const replay = await exchangeCode(api.origin, { clientId, code: code!, verifier });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await apiGet(api.origin, '/v1/projects', first.body.access_token)).status).toBe(401);
    expect((await refresh(api.origin, { clientId, refreshToken: first.body.refresh_token })).body.error).toBe(
      'invalid_grant',
    );
  });

  it('need the verifier of their challenge', async () => {
    const { challenge } = pkce();
    const { code } = await authorizeCode(api.origin, {
      clientId,
      user: tenant.user,
      projects: [tenant.projectId],
      challenge,
    });
    const wrong = await exchangeCode(api.origin, { clientId, code: code!, verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    const missing = await tokenRequest(api.origin, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: code!,
      redirect_uri: CALLBACK,
    });
    expect(missing.status).toBe(400);
  });

  it('are bound to the client that asked for them', async () => {
    const other = (await registerClient(api.origin, { client_name: 'Other tool' })).clientId;
    const { verifier, challenge } = pkce();
    const { code } = await authorizeCode(api.origin, {
      clientId,
      user: tenant.user,
      projects: [tenant.projectId],
      challenge,
    });
    const stolen = await exchangeCode(api.origin, { clientId: other, code: code!, verifier });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_grant');
  });

  it('are bound to the redirect URI of the authorization request', async () => {
    const second = 'http://127.0.0.1:53682/other-callback';
    const client = await registerClient(api.origin, { redirect_uris: [CALLBACK, second] });
    const { verifier, challenge } = pkce();
    const { code } = await authorizeCode(api.origin, {
      clientId: client.clientId,
      user: tenant.user,
      projects: [tenant.projectId],
      challenge,
    });
    const mismatch = await exchangeCode(api.origin, {
      clientId: client.clientId,
      code: code!,
      verifier,
      redirectUri: second,
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toBe('invalid_grant');
  });
});

describe('authorization requests', () => {
  it('refuse the PKCE method plain (back to the client with an error, no sign-in page)', async () => {
    const { verifier } = pkce();
    const page = await startAuthorization(new Browser(), api.origin, {
      clientId,
      challenge: verifier,
      method: 'plain',
    });
    expect(page.url.startsWith(CALLBACK)).toBe(true);
    const callback = new URL(page.url);
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('code')).toBeNull();
  });

  it('refuse a request without PKCE', async () => {
    const url = new URL(`${api.origin}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: CALLBACK,
      state: 's',
    })) {
      url.searchParams.set(k, v);
    }
    const res = await new Browser().fetch(url.toString());
    expect(new URL(res.location!).searchParams.get('error')).toBe('invalid_request');
  });

  it('never redirect to an unregistered redirect_uri (an error page instead)', async () => {
    const page = await startAuthorization(new Browser(), api.origin, {
      clientId,
      challenge: pkce().challenge,
      redirectUri: 'https://attacker.example/steal',
    });
    expect(page.res.status).toBe(400);
    expect(page.location).toBeUndefined();
    expect(page.text).toContain('redirect_uri');
    expect(page.res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('refuse the implicit flow', async () => {
    const url = new URL(`${api.origin}/oauth/authorize`);
    const params = {
      response_type: 'token',
      client_id: clientId,
      redirect_uri: CALLBACK,
      code_challenge: pkce().challenge,
    };
    for (const [k, v] of Object.entries({ ...params, code_challenge_method: 'S256' })) url.searchParams.set(k, v);
    const res = await new Browser().fetch(url.toString());
    // The error goes back to the client (in the fragment, the implicit flow's response mode); no token anywhere.
    const back = new URL(res.location!);
    const answer = new URLSearchParams(back.hash.slice(1) || back.search.slice(1));
    expect(answer.get('error')).toMatch(/unsupported_response_type|unauthorized_client/);
    expect(res.location).not.toContain('access_token');
  });

  it.each(['data:admin', 'events:write', 'events:synthetic'])('refuse %s with invalid_scope', async (scope) => {
    const page = await startAuthorization(new Browser(), api.origin, {
      clientId,
      challenge: pkce().challenge,
      scope: `analytics:read ${scope}`,
    });
    const callback = new URL(page.url);
    expect(callback.searchParams.get('error')).toBe('invalid_scope');
    expect(callback.searchParams.get('state')).toBe('state-123');
  });
});

describe('grant types other than authorization_code and refresh_token', () => {
  it.each(['client_credentials', 'password', 'urn:ietf:params:oauth:grant-type:device_code', 'implicit'])(
    '%s is refused',
    async (grantType) => {
      const res = await tokenRequest(api.origin, {
        grant_type: grantType,
        client_id: clientId,
        username: tenant.user.email,
        password: tenant.user.password,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/unsupported_grant_type|unauthorized_client|invalid_request/);
      expect(res.body.access_token).toBeUndefined();
    },
  );
});

describe('refresh tokens', () => {
  it('rotate, and replaying a rotated one revokes the whole family (the newest tokens too)', async () => {
    const first = await tokensFor();
    const second = await refresh(api.origin, { clientId, refreshToken: first.refresh_token });
    expect(second.status).toBe(200);
    expect((await apiGet(api.origin, '/v1/projects', second.body.access_token)).status).toBe(200);

    const replay = await refresh(api.origin, { clientId, refreshToken: first.refresh_token });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');

    expect((await apiGet(api.origin, '/v1/projects', second.body.access_token)).status).toBe(401);
    expect((await apiGet(api.origin, '/v1/projects', first.access_token)).status).toBe(401);
    const newest = await refresh(api.origin, { clientId, refreshToken: second.body.refresh_token });
    expect(newest.body.error).toBe('invalid_grant');
  });

  it('presented twice at the same moment: at most one succeeds, and the family is revoked', async () => {
    const first = await tokensFor();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => refresh(api.origin, { clientId, refreshToken: first.refresh_token })),
    );
    const winners = answers.filter((a) => a.status === 200);
    expect(winners.length).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.status === 400).every((a) => a.body.error === 'invalid_grant')).toBe(true);
    for (const winner of winners) {
      // The winner's tokens belong to a replayed family: none of them may reach the API.
      expect((await apiGet(api.origin, '/v1/projects', winner.body.access_token)).status).toBe(401);
      const again = await refresh(api.origin, { clientId, refreshToken: winner.body.refresh_token });
      if (again.status === 200) {
        expect((await apiGet(api.origin, '/v1/projects', again.body.access_token)).status).toBe(401);
      } else {
        expect(again.body.error).toBe('invalid_grant');
      }
    }
  });

  it('die with their grant: tokens saved after the library destroyed the grant (a reuse race) reach nothing', async () => {
    // The race above, made certain: oidc-provider's reuse detection destroys the Grant row and
    // the tokens it finds, but not FrameDeck's consent, while the request that won the token may
    // save its new tokens after that. Here the Grant row goes and the tokens stay.
    const tokens = await tokensFor();
    expect((await apiGet(api.origin, '/v1/projects', tokens.access_token)).status).toBe(200);
    const { rows } = await api.pool.query<{ grant_id: string }>(
      `SELECT c.grant_id FROM oauth_consents c JOIN users u ON u.id = c.user_id WHERE u.email = $1 AND c.client_id = $2`,
      [tenant.user.email, clientId],
    );
    expect(rows).toHaveLength(1);
    await api.pool.query(`DELETE FROM oauth_models WHERE model = 'Grant' AND id = $1`, [rows[0]!.grant_id]);
    expect((await apiGet(api.origin, '/v1/projects', tokens.access_token)).status).toBe(401);
  });

  it('cannot be used by another client', async () => {
    const tokens = await tokensFor();
    const other = (await registerClient(api.origin, { client_name: 'Thief' })).clientId;
    const res = await refresh(api.origin, { clientId: other, refreshToken: tokens.refresh_token });
    expect(res.body.error).toBe('invalid_grant');
  });

  it('cannot widen the scope', async () => {
    const tokens = await tokensFor('analytics:read');
    const res = await tokenRequest(api.origin, {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: tokens.refresh_token,
      scope: 'analytics:read resources:write',
    });
    expect(res.body.access_token === undefined || !String(res.body.scope).includes('resources:write')).toBe(true);
  });
});

describe('access tokens on the REST API', () => {
  it('reach only the consented projects: project B is a 404 for a token consented for project A', async () => {
    const tokens = await tokensFor('analytics:read');
    expect((await apiGet(api.origin, `/v1/projects/${tenant.projectId}/status`, tokens.access_token)).status).toBe(200);
    const other = await apiGet(api.origin, `/v1/projects/${projectB}/status`, tokens.access_token);
    expect(other.status).toBe(404);
    const list = await apiGet(api.origin, '/v1/projects', tokens.access_token);
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([tenant.projectId]);
  });

  it('carry only the consented scopes: analytics:read cannot call a resources:write endpoint', async () => {
    // DELETE an alert rule that does not exist: 403 when the scope check refuses, 404 once it passes.
    const path = `/v1/projects/${tenant.projectId}/alerts/${randomUUID()}`;
    const readOnly = await tokensFor('analytics:read');
    expect(readOnly.scope).toBe('analytics:read');
    const refused = await apiGet(api.origin, path, readOnly.access_token, 'DELETE');
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.detail).toContain('resources:write');

    const readWrite = await tokensFor('analytics:read resources:write');
    expect(readWrite.scope).toBe('analytics:read resources:write');
    const allowed = await apiGet(api.origin, path, readWrite.access_token, 'DELETE');
    expect(allowed.status, allowed.text).toBe(404);
  });

  it('are refused by whoami (API key only) and by raw SQL (data:admin)', async () => {
    const tokens = await tokensFor('analytics:read resources:write');
    expect((await apiGet(api.origin, '/v1/whoami', tokens.access_token)).status).toBe(401);
    const query = await fetch(`${api.origin}/api/v1/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: tenant.projectId, sql: 'SELECT 1', limit: 1 }),
    });
    expect(query.status).toBe(403); // needs data:admin, which no token holds
  });

  it('are unknown when forged or garbled', async () => {
    const tokens = await tokensFor();
    for (const forged of [`${tokens.access_token}x`, tokens.refresh_token, 'A'.repeat(43), 'x'.repeat(2000)]) {
      expect((await apiGet(api.origin, '/v1/projects', forged)).status).toBe(401);
    }
  });
});

describe('storage', () => {
  it('keeps no code, access or refresh token value in the database, only hashes', async () => {
    const tokens = await tokensFor();
    for (const value of [tokens.access_token, tokens.refresh_token]) {
      const { rows } = await api.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM oauth_models WHERE id = $1 OR payload::text LIKE '%' || $1 || '%'`,
        [value],
      );
      expect(rows[0]!.n).toBe(0);
      const hashed = await api.pool.query(
        `SELECT model FROM oauth_models WHERE id = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
        [value],
      );
      expect(hashed.rows.map((r) => r.model)).toHaveLength(1);
    }
  });
});

describe('dynamic registration', () => {
  it.each([
    ['http on a public host', { redirect_uris: ['http://tool.example.com/callback'] }],
    ['a custom scheme', { redirect_uris: ['mytool://callback'] }],
    ['a fragment', { redirect_uris: ['https://tool.example.com/cb#x'] }],
    ['a confidential client', { token_endpoint_auth_method: 'client_secret_basic' }],
    ['client_credentials', { grant_types: ['client_credentials'] }],
    ['the implicit flow', { response_types: ['token'], grant_types: ['implicit'] }],
  ])('refuses %s', async (_name, metadata) => {
    const res = await registerClient(api.origin, metadata);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatch(/invalid_redirect_uri|invalid_client_metadata/);
  });

  it('accepts https and loopback http redirect URIs, as a public client without a secret', async () => {
    const res = await registerClient(api.origin, {
      redirect_uris: ['https://tool.example.com/cb', 'http://[::1]:8123/cb', 'http://localhost:9000/cb'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ token_endpoint_auth_method: 'none' });
    expect(res.body.client_secret).toBeUndefined();
    expect(res.body.registration_access_token).toBeUndefined();
  });
});
