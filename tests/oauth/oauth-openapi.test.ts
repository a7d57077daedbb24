import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { OpenApiValidator } from '../api/support/openapi-validator.js';
import { startIdentityApi, type IdentityApi } from './support/identity-harness.js';
import { authorizeCode, pkce, registerClient } from './support/oauth-flow.js';

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
});
