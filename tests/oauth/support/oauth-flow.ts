import { expect } from 'vitest';
import { Browser, formAction, inputValue, pkce } from './browser.js';

export const CALLBACK = 'http://127.0.0.1:53682/callback';

export async function registerClient(origin: string, metadata: Record<string, unknown> = {}) {
  const res = await fetch(`${origin}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Perf Tool', redirect_uris: [CALLBACK], ...metadata }),
  });
  const body = (await res.json()) as Json;
  return { status: res.status, body, clientId: body.client_id as string };
}

export type AuthorizeParams = {
  clientId: string;
  redirectUri?: string;
  scope?: string;
  challenge: string;
  method?: string;
  state?: string;
};

export function authorizeUrl(origin: string, p: AuthorizeParams): string {
  const url = new URL(`${origin}/oauth/authorize`);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.clientId);
  url.searchParams.set('redirect_uri', p.redirectUri ?? CALLBACK);
  url.searchParams.set('code_challenge', p.challenge);
  url.searchParams.set('code_challenge_method', p.method ?? 'S256');
  url.searchParams.set('state', p.state ?? 'state-123');
  if (p.scope !== undefined) url.searchParams.set('scope', p.scope);
  return url.toString();
}

/** Starts an authorization in `browser`; ends on a page (sign-in, consent, error) or at the callback. */
export function startAuthorization(browser: Browser, origin: string, p: AuthorizeParams) {
  return browser.follow(authorizeUrl(origin, p), p.redirectUri ?? CALLBACK);
}

/** Submits the page's form with its CSRF token (unless `csrf` overrides it) and follows redirects. */
export function submit(
  browser: Browser,
  origin: string,
  page: { text: string },
  fields: Record<string, string | string[]>,
  options: { csrf?: string | null; stopAt?: string } = {},
) {
  const csrf = options.csrf === undefined ? inputValue(page.text, 'csrf_token') : options.csrf;
  const form = csrf === null ? fields : { csrf_token: csrf!, ...fields };
  return browser.follow(new URL(formAction(page.text), origin).toString(), options.stopAt ?? CALLBACK, { form });
}

/**
 * The whole browser part: authorize → sign in → consent (the given projects and scopes).
 * Returns the authorization code delivered to the callback.
 */
export async function authorizeCode(
  origin: string,
  input: {
    clientId: string;
    user: { email: string; password: string };
    projects: string[];
    scopes?: string[];
    scope?: string;
    challenge: string;
    browser?: Browser;
    redirectUri?: string;
  },
) {
  const browser = input.browser ?? new Browser();
  const params = {
    clientId: input.clientId,
    challenge: input.challenge,
    scope: input.scope,
    redirectUri: input.redirectUri,
  };
  let page = await startAuthorization(browser, origin, params);
  if (page.text.includes('Sign in to FrameDeck')) {
    page = await submit(
      browser,
      origin,
      page,
      { email: input.user.email, password: input.user.password },
      {
        stopAt: input.redirectUri,
      },
    );
  }
  if (page.text.includes('Authorize application')) {
    const scopes = input.scopes ?? [...page.text.matchAll(/name="scope"\s+value="([^"]+)"/g)].map((m) => m[1]!);
    page = await submit(
      browser,
      origin,
      page,
      { decision: 'allow', scope: scopes, project: input.projects },
      {
        stopAt: input.redirectUri,
      },
    );
  }
  expect(page.url.startsWith(input.redirectUri ?? CALLBACK), `${page.res.status} ${page.url}\n${page.text}`).toBe(true);
  const callback = new URL(page.url);
  return { code: callback.searchParams.get('code') ?? undefined, callback, browser };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON of any shape; tests assert on it
type Json = any;

export async function tokenRequest(
  origin: string,
  form: Record<string, string>,
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${origin}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: await res.json() };
}

export function exchangeCode(
  origin: string,
  p: { clientId: string; code: string; verifier: string; redirectUri?: string },
) {
  return tokenRequest(origin, {
    grant_type: 'authorization_code',
    client_id: p.clientId,
    code: p.code,
    code_verifier: p.verifier,
    redirect_uri: p.redirectUri ?? CALLBACK,
  });
}

export function refresh(origin: string, p: { clientId: string; refreshToken: string }) {
  return tokenRequest(origin, { grant_type: 'refresh_token', client_id: p.clientId, refresh_token: p.refreshToken });
}

/** GET (or `method`) {base_url}{path} with a bearer token. */
export async function apiGet(origin: string, path: string, token: string, method = 'GET') {
  const res = await fetch(`${origin}/api${path}`, { method, headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Json, text };
}

export { Browser, pkce };
