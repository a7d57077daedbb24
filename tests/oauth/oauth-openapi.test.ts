import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { OpenApiValidator } from '../api/support/openapi-validator.js';
import { startIdentityApi, type IdentityApi } from './support/identity-harness.js';
import { Browser } from './support/browser.js';
import { authorizeCode, pkce, registerClient, startAuthorization } from './support/oauth-flow.js';

let api: IdentityApi;
let tenant: BootstrapResult;
let validator: OpenApiValidator;

beforeAll(async () => {
  api = await startIdentityApi();
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' });
  validator = new OpenApiValidator(api.api.openApiDocument);
});
afterAll(() => api.close());

async function answer(path: string, init: RequestInit = {}) {
  const res = await fetch(`${api.baseUrl}${path}`, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

describe('the OpenAPI document', () => {
  it('documents the OAuth endpoints with their rules and lifetimes', async () => {
    const doc = api.api.openApiDocument;
    for (const path of ['/oauth/token', '/oauth/register', '/oauth/revoke']) expect(doc.paths?.[path]).toBeDefined();
    expect(doc.paths?.['/.well-known/oauth-authorization-server']?.servers?.[0]?.url).toBe(api.origin);
    expect(doc.paths?.['/oauth/authorize']?.servers?.[0]?.url).toBe(api.origin);
    const description = doc.paths?.['/oauth/token']?.post?.description ?? '';
    expect(description).toContain('S256');
    expect(description).toContain('invalid_scope');
    expect(description).toContain('access token 60 min');
    expect(description).toContain('revokes the whole grant');
  });

  it('describes the session endpoints and the authorized apps as they answer', async () => {
    const signIn = await answer('/v1/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(tenant.user),
    });
    validator.expectDocumented(signIn, 'POST', '/v1/session');
    const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
    validator.expectDocumented(await answer('/v1/session', { headers: { cookie } }), 'GET', '/v1/session');
    validator.expectProblem(
      await answer('/v1/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      400,
    );

    const client = await registerClient(api.origin, { client_name: 'Documented tool' });
    await authorizeCode(api.origin, {
      clientId: client.clientId,
      user: tenant.user,
      projects: [tenant.projectId],
      challenge: pkce().challenge,
    });
    const apps = await answer('/v1/account/authorized-apps', { headers: { cookie } });
    expect(apps.body.data).toHaveLength(1);
    validator.expectDocumented(apps, 'GET', '/v1/account/authorized-apps');
    const security = api.api.openApiDocument.paths?.['/v1/account/authorized-apps']?.get?.security;
    expect(security).toEqual([{ SessionCookie: [] }]);
  });

  it('the registration answer is the documented OAuthClient, without OpenID Connect members', async () => {
    const res = await answer('/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Strict client', redirect_uris: ['http://127.0.0.1:5000/cb'] }),
    });
    expect(res.status).toBe(201);
    validator.expectDocumented(res, 'POST', '/oauth/register');
    for (const member of ['application_type', 'subject_type', 'id_token_signed_response_alg', 'require_auth_time'])
      expect(res.body).not.toHaveProperty(member);
    expect(res.body.scope).toBe('analytics:read resources:write');
  });
});

describe('dynamic registration with a scope (RFC 7591 §2)', () => {
  const register = (metadata: Record<string, unknown>) =>
    answer('/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Scoped tool',
        redirect_uris: ['http://127.0.0.1:53682/callback'],
        ...metadata,
      }),
    });

  it('accepts values of scopes_supported, documented, and keeps the client to them', async () => {
    const res = await register({ scope: 'analytics:read' });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(res.body.scope).toBe('analytics:read');
    validator.expectDocumented(res, 'POST', '/oauth/register');
    // The client registered analytics:read only: asking for resources:write is invalid_scope.
    const page = await startAuthorization(new Browser(), api.origin, {
      clientId: res.body.client_id,
      challenge: pkce().challenge,
      scope: 'resources:write',
    });
    expect(new URL(page.url).searchParams.get('error')).toBe('invalid_scope');
    const both = await register({ scope: 'resources:write analytics:read' });
    expect(both.status).toBe(201);
    expect(both.body.scope).toBe('analytics:read resources:write');
  });

  it.each([['data:admin'], ['analytics:read openid'], ['events:write'], [''], [42]])(
    'refuses scope %j with 400 invalid_client_metadata and no WWW-Authenticate',
    async (scope) => {
      const res = await register({ scope });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_client_metadata');
      expect(res.headers.get('www-authenticate')).toBeNull();
      validator.expectDocumented(res, 'POST', '/oauth/register');
    },
  );

  it('never sends WWW-Authenticate on any registration error', async () => {
    const res = await register({ redirect_uris: ['http://tool.example.com/cb'] });
    expect(res.status).toBe(400);
    expect(res.headers.get('www-authenticate')).toBeNull();
  });
});
