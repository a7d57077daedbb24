import { createHash, randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '@framedeck/auth';
import { findUserByEmail, type Queryable, type User } from '@framedeck/postgres';

/** The part of a sliding-window counter sign-in needs (libs/rate-limit implements it). */
export interface AttemptCounter {
  hit(key: string, limit: number): Promise<{ allowed: boolean; resetAtMs: number }>;
  reset(key: string): Promise<void>;
}

export type SignInOutcome =
  | { ok: true; user: User }
  | { ok: false; reason: 'invalid_credentials' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/**
 * DECISION: attempts (not only failures) are counted over the counter's window before the
 * password is checked, per (email, client IP) and per client IP: guessing is slow, and so is
 * burning our CPU on Argon2 (each check costs ~19 MiB and tens of ms on these 2 cores).
 * NOTE: never per email alone: whoever knows a user's email could then lock the user out from
 * any address. Attempts from another address fill only that address's buckets; the user's own
 * address is untouched. A guesser spread over many addresses is slowed by the per-address
 * limit (and the password rules), not by the victim's lockout.
 */
export const SIGN_IN_LIMITS = { perEmailFromClientIp: 10, perClientIp: 50, windowMinutes: 15 } as const;

/** Sign-in of a dashboard user by email and password: shared by the dashboard and the OAuth pages. */
export class UserSignIn {
  // Checked when the email is unknown, so that answering takes as long as for a known one
  // (no account enumeration by timing).
  private readonly decoyHash: Promise<string> = hashPassword(randomBytes(16).toString('base64url'));

  constructor(private readonly deps: { db: Queryable; attempts: AttemptCounter }) {}

  async attempt(input: { email: string; password: string; clientIp: string }): Promise<SignInOutcome> {
    const email = input.email.trim().toLowerCase();
    const emailHash = createHash('sha256').update(email).digest('base64url').slice(0, 22);
    const emailFromClientKey = `signin:email-ip:${emailHash}:${input.clientIp}`;
    const throttled = await this.throttle([
      [emailFromClientKey, SIGN_IN_LIMITS.perEmailFromClientIp],
      [`signin:ip:${input.clientIp}`, SIGN_IN_LIMITS.perClientIp],
    ]);
    if (throttled) return throttled;

    const user = await findUserByEmail(this.deps.db, email);
    const valid = await verifyPassword(user?.passwordHash ?? (await this.decoyHash), input.password);
    if (!user || !valid) return { ok: false, reason: 'invalid_credentials' };
    await this.deps.attempts.reset(emailFromClientKey);
    return { ok: true, user };
  }

  private async throttle(keys: [string, number][]): Promise<SignInOutcome | undefined> {
    for (const [key, limit] of keys) {
      const decision = await this.deps.attempts.hit(key, limit);
      if (!decision.allowed) {
        const retryAfterSeconds = Math.max(1, Math.ceil((decision.resetAtMs - Date.now()) / 1000));
        return { ok: false, reason: 'throttled', retryAfterSeconds };
      }
    }
    return undefined;
  }
}
