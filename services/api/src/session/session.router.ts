import { Router, type RequestHandler } from 'express';
import { getTenant, listProjectsOfTenant, type Pool } from '@framedeck/postgres';
import { ApiProblem, problems } from '@framedeck/problem';
import { jsonBody, parseOr400 } from '../http/validate.js';
import type { ActiveSession, DashboardSessions } from './dashboard-sessions.js';
import { assertOwnOrigin, SESSION_SCOPES, type CookieSessionAuthenticator } from './session.authenticator.js';
import type { SessionCookie } from './session-cookie.js';
import { SignInBody, type DashboardSessionView } from './session.schemas.js';
import type { UserSignIn } from './user-sign-in.js';

export const SESSION_PATH = '/api/v1/session';

type SessionRouteDeps = {
  pool: Pool;
  sessions: DashboardSessions;
  cookie: SessionCookie;
  authenticator: CookieSessionAuthenticator;
  signIn: UserSignIn;
  appOrigin: string;
};

/**
 * Dashboard sign-in: POST {base_url}/v1/session (JSON email + password) sets the session
 * cookie; GET describes the signed-in user; DELETE signs out. Outside the route registry because
 * signing in is the one API call made without a credential.
 * NOTE (login CSRF): POST takes only application/json, which a cross-site form cannot send and a
 * cross-site script cannot send without a CORS preflight we never grant; a foreign Origin is 403.
 */
export function sessionRouter(deps: SessionRouteDeps): Router {
  const router = Router();
  const noStore: RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  };

  router.post(SESSION_PATH, noStore, jsonBody(16 * 1024), async (req, res) => {
    assertOwnOrigin(req, deps.appOrigin);
    if (!req.is('application/json')) throw problems.unsupportedMediaType('The request body must be application/json.');
    const body = parseOr400(SignInBody, req.body, 'body');
    const outcome = await deps.signIn.attempt({ ...body, clientIp: req.ip ?? 'unknown' });
    if (!outcome.ok && outcome.reason === 'throttled') {
      throw problems.tooManyRequests('Too many sign-in attempts; try again later.', outcome.retryAfterSeconds);
    }
    if (!outcome.ok) throw new ApiProblem(401, 'Incorrect email or password.');
    const started = await deps.sessions.start(outcome.user.id);
    const session = await deps.sessions.resolve(started.token);
    if (!session) throw problems.internal();
    deps.cookie.write(res, started.token, started.expiresAt);
    res.json({ success: true, data: await describe(deps, session) });
  });

  router.get(SESSION_PATH, noStore, async (req, res) => {
    const session = await deps.authenticator.sessionOf(req);
    if (!session) throw problems.unauthorized('Not signed in.');
    res.json({ success: true, data: await describe(deps, session) });
  });

  router.delete(SESSION_PATH, noStore, async (req, res) => {
    const session = await deps.authenticator.sessionOf(req);
    if (!session) throw problems.unauthorized('Not signed in.');
    deps.authenticator.assertSameSite(req, session);
    await deps.sessions.end(deps.cookie.read(req)!);
    deps.cookie.clear(res);
    res.json({ success: true, data: { signedOut: true } });
  });

  return router;
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
