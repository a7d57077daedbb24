import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, createProjectWithKeys, type BootstrapResult } from '@framedeck/accounts';
import { SIGN_IN_LIMITS } from '../../services/api/src/session/user-sign-in.js';
import { inputValue } from './support/browser.js';
import { startIdentityApi, type IdentityApi } from './support/identity-harness.js';
import { Browser, CALLBACK, pkce, registerClient, startAuthorization, submit } from './support/oauth-flow.js';

let api: IdentityApi;
let tenant: BootstrapResult;
let otherTenant: BootstrapResult;
let clientId: string;

beforeAll(async () => {
  api = await startIdentityApi();
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' });
  await createProjectWithKeys(api.pool, { tenantId: tenant.tenantId, name: 'Second game' });
  otherTenant = await bootstrapTenant(api.pool, { plan: 'pro' });
  clientId = (await registerClient(api.origin, { client_name: '<img src=x onerror=alert(1)> Perf Tool' })).clientId;
});
afterAll(() => api.close());

async function signInPage(browser = new Browser(), client = clientId) {
  const page = await startAuthorization(browser, api.origin, { clientId: client, challenge: pkce().challenge });
  expect(page.res.status, page.text).toBe(200);
  expect(page.text).toContain('Sign in to FrameDeck');
  return { browser, page };
}

/** Consent is shown only while the user has no grant for the client covering the request. */
async function consentPage(client = clientId) {
  const user = tenant.user;
  const { browser, page } = await signInPage(new Browser(), client);
  const consent = await submit(browser, api.origin, page, { email: user.email, password: user.password });
  expect(consent.text).toContain('Authorize application');
  return { browser, page: consent };
}

function expectUnframeable(res: Response) {
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(res.headers.get('cache-control')).toBe('no-store');
}

describe('the sign-in page', () => {
  it('names the client (escaped) and the redirect host, and cannot be framed', async () => {
    const { page } = await signInPage();
    expectUnframeable(page.res);
    expect(page.text).toContain('&#60;img src=x onerror=alert(1)&#62; Perf Tool');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('127.0.0.1:53682');
    expect(page.res.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('refuses a post without its CSRF token, or with another interaction’s token', async () => {
    const { browser, page } = await signInPage();
    const creds = { email: tenant.user.email, password: tenant.user.password };
    const missing = await submit(browser, api.origin, page, creds, { csrf: null });
    expect(missing.res.status).toBe(403);
    expect(missing.text).not.toContain('Authorize application');

    const other = await signInPage(new Browser());
    const foreign = await submit(browser, api.origin, page, creds, { csrf: inputValue(other.page.text, 'csrf_token') });
    expect(foreign.res.status).toBe(403);

    // The same form with its own token goes through.
    const ok = await submit(browser, api.origin, page, creds);
    expect(ok.text).toContain('Authorize application');
  });

  it('refuses a post from a browser without the interaction cookie', async () => {
    const { page } = await signInPage();
    const stranger = await submit(new Browser(), api.origin, page, {
      email: tenant.user.email,
      password: tenant.user.password,
    });
    expect(stranger.res.status).toBe(400);
    expect(stranger.text).not.toContain('Authorize application');
  });

  it('answers the same generic error for an unknown email and a wrong password', async () => {
    const { browser, page } = await signInPage();
    const unknown = await submit(browser, api.origin, page, { email: 'nobody@framedeck.local', password: 'x' });
    const wrong = await submit(browser, api.origin, page, { email: tenant.user.email, password: 'wrong password' });
    for (const answer of [unknown, wrong]) {
      expect(answer.res.status).toBe(401);
      expect(answer.text).toContain('Incorrect email or password.');
      expectUnframeable(answer.res);
    }
  });

  it(`limits attempts per email from one address (${SIGN_IN_LIMITS.perEmailFromClientIp} per ${SIGN_IN_LIMITS.windowMinutes} min), even with the right password`, async () => {
    const victim = await bootstrapTenant(api.pool, { plan: 'free' });
    const { browser, page } = await signInPage();
    for (let i = 0; i < SIGN_IN_LIMITS.perEmailFromClientIp; i++) {
      const res = await submit(browser, api.origin, page, { email: victim.user.email, password: `guess-${i}` });
      expect(res.res.status).toBe(401);
    }
    const limited = await submit(browser, api.origin, page, victim.user);
    expect(limited.res.status).toBe(429);
    expect(Number(limited.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.text).not.toContain('Authorize application');
  });
});

describe('the consent page', () => {
  it('lists only the signed-in user’s projects, shows client and host, and cannot be framed', async () => {
    const { page } = await consentPage();
    expectUnframeable(page.res);
    expect(page.res.headers.get('content-security-policy')).toContain('form-action');
    expect(page.text).toContain('127.0.0.1:53682');
    expect(page.text).toContain(tenant.projectId);
    expect(page.text).toContain('Second game');
    expect(page.text).not.toContain(otherTenant.projectId);
    expect(page.text).toContain('value="analytics:read"');
    expect(page.text).not.toContain('data:admin"');
  });

  it('refuses a post without its CSRF token', async () => {
    const { browser, page } = await consentPage();
    const res = await submit(
      browser,
      api.origin,
      page,
      { decision: 'allow', scope: 'analytics:read', project: tenant.projectId },
      { csrf: null },
    );
    expect(res.res.status).toBe(403);
    expect(res.url.startsWith(CALLBACK)).toBe(false);
  });

  it('refuses another tenant’s project and an empty choice', async () => {
    const { browser, page } = await consentPage();
    const foreign = await submit(browser, api.origin, page, {
      decision: 'allow',
      scope: 'analytics:read',
      project: otherTenant.projectId,
    });
    expect(foreign.res.status).toBe(400);
    expect(foreign.url.startsWith(CALLBACK)).toBe(false);
    const none = await submit(browser, api.origin, page, { decision: 'allow', scope: 'analytics:read' });
    expect(none.res.status).toBe(400);
  });

  it('grants no scope that was not requested, even if posted', async () => {
    const { browser, page } = await consentPage();
    const res = await submit(browser, api.origin, page, {
      decision: 'allow',
      scope: ['analytics:read', 'resources:write', 'data:admin'],
      project: tenant.projectId,
    });
    expect(res.url.startsWith(CALLBACK)).toBe(true);
    const { rows } = await api.pool.query<{ scopes: string[] }>(
      `SELECT c.scopes FROM oauth_consents c JOIN users u ON u.id = c.user_id WHERE u.email = $1 AND c.client_id = $2`,
      [tenant.user.email, clientId],
    );
    expect(rows[0]!.scopes).toEqual(['analytics:read']);
  });

  it('sends access_denied back to the client when the user denies', async () => {
    const fresh = (await registerClient(api.origin, { client_name: 'Denied tool' })).clientId;
    const { browser, page } = await consentPage(fresh);
    const res = await submit(browser, api.origin, page, { decision: 'deny' });
    const callback = new URL(res.url);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('code')).toBeNull();
  });
});
