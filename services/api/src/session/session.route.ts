import { z } from 'zod';
import { getTenant, listProjectsOfTenant, type Pool } from '@framedeck/postgres';
import { ApiProblem, problems } from '@framedeck/problem';
import { defineRoute, type RouteDefinition } from '../http/route.js';
import { SESSION_LIFETIMES, type ActiveSession, type DashboardSessions } from './dashboard-sessions.js';
import { assertOwnOrigin, SESSION_SCOPES, type CookieSessionAuthenticator } from './session.authenticator.js';
import type { SessionCookie } from './session-cookie.js';
import { DashboardSessionSchema, SignInBody, type DashboardSessionView } from './session.schemas.js';
import { SIGN_IN_LIMITS, type UserSignIn } from './user-sign-in.js';

type SessionRouteDeps = {
  pool: Pool;
  sessions: DashboardSessions;
  cookie: SessionCookie;
  authenticator: CookieSessionAuthenticator;
  signIn: UserSignIn;
  appOrigin: string;
};

const RULES =
  'Dashboard sign-in. The session is an httpOnly, SameSite=Lax cookie (`fd_session`; `__Host-fd_session`, ' +
  `Secure, on https origins); it ends after ${SESSION_LIFETIMES.idleSeconds / 3600} idle hours and ` +
  `${SESSION_LIFETIMES.absoluteSeconds / 86_400} days after sign-in. With the cookie, every /v1 endpoint ` +
  'that accepts a dashboard session may be called; POST, PUT, PATCH and DELETE also need the header ' +
  'X-CSRF-Token (value: `csrfToken` below), and a cross-origin Origin header is refused (403). ' +
  'These three calls count against no plan quota (sign-in attempts have limits of their own).';

/**
 * Dashboard sign-in: POST {base_url}/v1/session (JSON email + password) sets the session
 * cookie; GET describes the signed-in user; DELETE signs out (the registry's session credential
 * checks X-CSRF-Token and Origin first, as on every unsafe call).
 * NOTE (login CSRF): POST takes only application/json, which a cross-site form cannot send and a
 * cross-site script cannot send without a CORS preflight we never grant; a foreign Origin is 403.
 */
export function sessionRoutes(deps: SessionRouteDeps): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/session',
      operationId: 'signIn',
      summary: 'Sign in to the dashboard (sets the session cookie)',
      description:
        `JSON only. At most ${SIGN_IN_LIMITS.perEmailFromClientIp} attempts per email from one client IP and ` +
        `${SIGN_IN_LIMITS.perClientIp} per client IP in ${SIGN_IN_LIMITS.windowMinutes} minutes (never per email ` +
        'alone, so nobody can lock a user out from another address). Bad email and bad password get the same ' +
        `answer.\n\n${RULES}`,
      tag: 'Account',
      auth: { scope: null, credentials: 'none' },
      rateLimit: 'none',
      request: { body: SignInBody, bodyLimitBytes: 16 * 1024 },
      errors: [401, 403, 429],
      errorDescriptions: {
        401: 'Incorrect email or password.',
        403: 'Cross-origin request.',
        429: 'Too many sign-in attempts; see Retry-After.',
      },
      response: { description: 'Signed in; Set-Cookie carries the session.', data: DashboardSessionSchema },
      handler: async ({ req, res, body }) => {
        res.set('Cache-Control', 'no-store');
        assertOwnOrigin(req, deps.appOrigin);
        const outcome = await deps.signIn.attempt({ ...body, clientIp: req.ip ?? 'unknown' });
        if (!outcome.ok && outcome.reason === 'throttled') {
          throw problems.tooManyRequests('Too many sign-in attempts; try again later.', outcome.retryAfterSeconds);
        }
        if (!outcome.ok) throw new ApiProblem(401, 'Incorrect email or password.');
        const started = await deps.sessions.start(outcome.user.id);
        const session = await deps.sessions.resolve(started.token);
        if (!session) throw problems.internal();
        deps.cookie.write(res, started.token, started.expiresAt);
        return describe(deps, session);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/session',
      operationId: 'getSession',
      summary: 'The signed-in user, tenant, projects and CSRF token',
      description: RULES,
      tag: 'Account',
      auth: { scope: null, credentials: 'session' },
      rateLimit: 'none',
      response: { description: 'The session.', data: DashboardSessionSchema },
      handler: async ({ req, res }) => {
        res.set('Cache-Control', 'no-store');
        const session = await deps.authenticator.sessionOf(req);
        if (!session) throw problems.unauthorized('Not signed in.');
        return describe(deps, session);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/session',
      operationId: 'signOut',
      summary: 'Sign out (ends the session server-side, clears the cookie)',
      description: RULES,
      tag: 'Account',
      auth: { scope: null, credentials: 'session' },
      rateLimit: 'none',
      errors: [403],
      errorDescriptions: { 403: 'Missing or invalid X-CSRF-Token, or cross-origin request.' },
      response: { description: 'Signed out.', data: z.object({ signedOut: z.literal(true) }) },
      handler: async ({ req, res }) => {
        res.set('Cache-Control', 'no-store');
        await deps.sessions.end(deps.cookie.read(req)!);
        deps.cookie.clear(res);
        return { signedOut: true as const };
      },
    }),
  ];
}

async function describe(deps: SessionRouteDeps, session: ActiveSession): Promise<DashboardSessionView> {
  const [tenant, projects] = await Promise.all([
    getTenant(deps.pool, session.tenantId),
    listProjectsOfTenant(deps.pool, session.tenantId),
  ]);
  return {
    user: {
      id: session.userId,
      email: session.email,
      tenantId: session.tenantId,
      planId: session.planId,
      scopes: [...SESSION_SCOPES],
    },
    tenant: { id: session.tenantId, name: tenant?.name ?? '', planId: session.planId },
    projects: projects.map((p) => ({ id: p.id, name: p.name, createdAt: p.createdAt.toISOString() })),
    csrfToken: deps.sessions.csrfToken(session),
    expiresAt: session.expiresAt.toISOString(),
  };
}
