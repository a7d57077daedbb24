import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { startIdentityApi, type IdentityApi } from './support/identity-harness.js';
import { apiGet, authorizeCode, Browser, exchangeCode, pkce, startAuthorization } from './support/oauth-flow.js';

// The Framedash CLI's `login`: the pre-registered public client fdc_framedash_cli, PKCE, a
// loopback callback on whatever port the CLI got; `logout`: RFC 7009 revocation with client_id.
const CLI_CLIENT_ID = 'fdc_framedash_cli';

let api: IdentityApi;
let tenant: BootstrapResult;

beforeAll(async () => {
  api = await startIdentityApi();
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' });
});
afterAll(() => api.close());

describe('the pre-registered command-line client', () => {
  it('signs in on any loopback port, calls the API, and logs out by revoking its refresh token', async () => {
    for (const port of [53123, 61999]) {
      const redirectUri = `http://127.0.0.1:${port}/callback`;
      const { verifier, challenge } = pkce();
      const { code } = await authorizeCode(api.origin, {
        clientId: CLI_CLIENT_ID,
        user: tenant.user,
        projects: [tenant.projectId],
        challenge,
        redirectUri,
      });
      const tokens = await exchangeCode(api.origin, { clientId: CLI_CLIENT_ID, code: code!, verifier, redirectUri });
      expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
      expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'analytics:read' });
      const projects = await apiGet(api.origin, '/v1/projects', tokens.body.access_token);
      expect(projects.status, projects.text).toBe(200);

      // logout: POST /api/oauth/revoke token=<refresh token>&client_id=fdc_framedash_cli
      const revoked = await fetch(`${api.origin}/api/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokens.body.refresh_token, client_id: CLI_CLIENT_ID }).toString(),
      });
      expect(revoked.status).toBe(200);
      expect((await apiGet(api.origin, '/v1/projects', tokens.body.access_token)).status).toBe(401);
    }
  });

  it.each([
    ['another host', 'http://evil.example:53123/callback'],
    ['https on another host', 'https://evil.example/callback'],
    ['another path on loopback', 'http://127.0.0.1:53123/steal'],
  ])('refuses a redirect to %s (no redirect happens)', async (_what, redirectUri) => {
    const { challenge } = pkce();
    const page = await startAuthorization(new Browser(), api.origin, {
      clientId: CLI_CLIENT_ID,
      challenge,
      redirectUri,
    });
    expect(page.url.startsWith(redirectUri)).toBe(false);
    expect(page.text).toMatch(/redirect_uri/);
  });

  it('cannot be replaced or impersonated with a secret: the token endpoint takes no client secret for it', async () => {
    const res = await fetch(`${api.origin}/api/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${CLI_CLIENT_ID}:guess`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x' }).toString(),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error?: string }).error).toBe('invalid_client');
  });
});
