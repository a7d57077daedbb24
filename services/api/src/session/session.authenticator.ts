import type { Request } from 'express';
import type { Scope } from '@framedeck/auth';
import { problems } from '@framedeck/problem';
import type { Principal, SessionAuthenticator } from '../http/principal.js';
import type { ActiveSession, DashboardSessions } from './dashboard-sessions.js';
import type { SessionCookie } from './session-cookie.js';

/**
 * DECISION: a dashboard user owns their tenant, so a session may do what a Full key may, on
 * every project of the tenant — but never send events (events:write stays with SDK keys).
 */
export const SESSION_SCOPES: readonly Scope[] = ['analytics:read', 'resources:write', 'data:admin'];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The session cookie as an API credential. Cookies ride along on cross-site requests, so an
 * unsafe request must also prove it comes from our own pages: the X-CSRF-Token header (which a
 * cross-site form cannot set) must match the session, and a browser-sent Origin must be ours.
 */
export class CookieSessionAuthenticator implements SessionAuthenticator {
  constructor(private readonly deps: { sessions: DashboardSessions; cookie: SessionCookie; appOrigin: string }) {}

  async authenticate(req: Request): Promise<Principal | null> {
    const session = await this.sessionOf(req);
    if (!session) return null;
    if (!SAFE_METHODS.has(req.method)) this.assertSameSite(req, session);
    return sessionPrincipal(session);
  }

  /** The live session of the request, without the CSRF check (for the session endpoints). */
  sessionOf(req: Request): Promise<ActiveSession | undefined> {
    return this.deps.sessions.resolve(this.deps.cookie.read(req));
  }

  assertSameSite(req: Request, session: ActiveSession): void {
    assertOwnOrigin(req, this.deps.appOrigin);
    if (!this.deps.sessions.verifyCsrf(session, req.get('x-csrf-token'))) {
      throw problems.forbidden('Missing or invalid X-CSRF-Token for this session.');
    }
  }
}

/** A browser always sends Origin on unsafe cross-origin requests; when it does, it must be ours. */
export function assertOwnOrigin(req: Request, appOrigin: string): void {
  const origin = req.get('origin');
  if (origin !== undefined && origin !== appOrigin) {
    throw problems.forbidden('Cross-origin requests cannot use the dashboard session.');
  }
}

function sessionPrincipal(session: ActiveSession): Principal {
  return {
    tenantId: session.tenantId,
    projectIds: session.projectIds,
    scopes: SESSION_SCOPES,
    credential: { type: 'session', userId: session.userId, email: session.email, planId: session.planId },
  };
}
