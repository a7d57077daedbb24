import { createHash, randomBytes } from 'node:crypto';
import {
  deleteDashboardSession,
  deleteExpiredDashboardSessions,
  findLiveDashboardSession,
  insertDashboardSession,
  touchDashboardSession,
  type DashboardSession,
  type Queryable,
} from '@framedeck/postgres';
import type { CsrfTokens } from '../security/csrf.js';

const MINUTE_MS = 60_000;

/** DECISION: a session ends after 12 idle hours, and 7 days after sign-in whatever happens. */
export const SESSION_LIFETIMES = {
  idleSeconds: 12 * 60 * 60,
  absoluteSeconds: 7 * 24 * 60 * 60,
  /** last_seen_at is written at most this often per session (not on every request). */
  touchEveryMs: 5 * MINUTE_MS,
} as const;

export type ActiveSession = DashboardSession & {
  /** SHA-256 of the cookie value: the session's identity server-side. */
  idHash: Buffer;
};

/** Dashboard sign-in sessions, stored in Postgres; the cookie carries 256 random bits. */
export class DashboardSessions {
  constructor(private readonly deps: { db: Queryable; csrf: CsrfTokens }) {}

  async start(userId: string): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + SESSION_LIFETIMES.absoluteSeconds * 1000);
    await insertDashboardSession(this.deps.db, { idHash: hashToken(token), userId, expiresAt });
    return { token, expiresAt };
  }

  async resolve(token: string | undefined): Promise<ActiveSession | undefined> {
    if (!token) return undefined;
    const idHash = hashToken(token);
    const session = await findLiveDashboardSession(this.deps.db, idHash, SESSION_LIFETIMES.idleSeconds);
    if (!session) return undefined;
    if (Date.now() - session.lastSeenAt.getTime() > SESSION_LIFETIMES.touchEveryMs) {
      await touchDashboardSession(this.deps.db, idHash);
    }
    return { ...session, idHash };
  }

  async end(token: string): Promise<void> {
    await deleteDashboardSession(this.deps.db, hashToken(token));
  }

  /** The token unsafe requests made with this session must echo in X-CSRF-Token. */
  csrfToken(session: ActiveSession): string {
    return this.deps.csrf.issue(csrfBinding(session));
  }

  verifyCsrf(session: ActiveSession, token: unknown): boolean {
    return this.deps.csrf.verify(csrfBinding(session), token);
  }

  pruneExpired(): Promise<number> {
    return deleteExpiredDashboardSessions(this.deps.db, SESSION_LIFETIMES.idleSeconds);
  }
}

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

function csrfBinding(session: ActiveSession): string {
  return `session:${session.idHash.toString('hex')}`;
}
