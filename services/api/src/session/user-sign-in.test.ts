import { hashPassword } from '@framedeck/auth';
import type { Queryable, User } from '@framedeck/postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS, UserSignIn, type AttemptCounter } from './user-sign-in.js';

/** The sliding-window counter's contract, in memory (one window: nothing expires during a test). */
class MemoryAttempts implements AttemptCounter {
  readonly counts = new Map<string, number>();
  async hit(key: string, limit: number) {
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return { allowed: n <= limit, resetAtMs: Date.now() + SIGN_IN_LIMITS.windowMinutes * 60_000 };
  }
  async reset(key: string) {
    this.counts.delete(key);
  }
}

const PASSWORD = 'correct horse battery staple';
let user: User;
const db = {
  query: async (_sql: string, params: unknown[]) => ({ rows: params[0] === user.email ? [user] : [] }),
} as unknown as Queryable;

beforeAll(async () => {
  user = {
    id: '3f1a7c2e-0000-4000-8000-000000000001',
    tenantId: '3f1a7c2e-0000-4000-8000-000000000002',
    email: 'victim@studio.example',
    passwordHash: await hashPassword(PASSWORD),
    createdAt: new Date(),
  };
});

describe('sign-in throttling', () => {
  it('an attacker at another address cannot lock the user out, however many times they fail', async () => {
    const signIn = new UserSignIn({ db, attempts: new MemoryAttempts() });
    const attacker = '203.0.113.66';
    const outcomes = [];
    for (let i = 0; i < SIGN_IN_LIMITS.perEmailFromClientIp + 5; i++) {
      outcomes.push((await signIn.attempt({ email: user.email, password: `guess-${i}`, clientIp: attacker })).ok);
    }
    // The attacker is throttled…
    const last = await signIn.attempt({ email: user.email, password: PASSWORD, clientIp: attacker });
    expect(last).toMatchObject({ ok: false, reason: 'throttled' });
    expect(outcomes.every((ok) => !ok)).toBe(true);
    // …the user, at their own address, signs in.
    const victim = await signIn.attempt({
      email: user.email.toUpperCase(),
      password: PASSWORD,
      clientIp: '198.51.100.7',
    });
    expect(victim.ok).toBe(true);
  }, 30_000);

  it(`still limits guesses per email from one address (${SIGN_IN_LIMITS.perEmailFromClientIp}) and per address (${SIGN_IN_LIMITS.perClientIp})`, async () => {
    const attempts = new MemoryAttempts();
    const signIn = new UserSignIn({ db, attempts });
    for (let i = 0; i < SIGN_IN_LIMITS.perEmailFromClientIp; i++) {
      await signIn.attempt({ email: user.email, password: 'wrong', clientIp: '192.0.2.1' });
    }
    expect(await signIn.attempt({ email: user.email, password: PASSWORD, clientIp: '192.0.2.1' })).toMatchObject({
      reason: 'throttled',
    });
    // Many emails from one address: the per-address limit (counted before any password check).
    for (let i = 0; i < SIGN_IN_LIMITS.perClientIp; i++) await attempts.hit('signin:ip:192.0.2.2', Infinity);
    expect(await signIn.attempt({ email: 'other@x.example', password: 'x', clientIp: '192.0.2.2' })).toMatchObject({
      reason: 'throttled',
    });
  }, 30_000);

  it('a successful sign-in clears the failures of that address', async () => {
    const signIn = new UserSignIn({ db, attempts: new MemoryAttempts() });
    for (let i = 0; i < SIGN_IN_LIMITS.perEmailFromClientIp - 1; i++) {
      await signIn.attempt({ email: user.email, password: 'wrong', clientIp: '192.0.2.3' });
    }
    expect((await signIn.attempt({ email: user.email, password: PASSWORD, clientIp: '192.0.2.3' })).ok).toBe(true);
    expect((await signIn.attempt({ email: user.email, password: 'wrong', clientIp: '192.0.2.3' })).ok).toBe(false);
    expect((await signIn.attempt({ email: user.email, password: PASSWORD, clientIp: '192.0.2.3' })).ok).toBe(true);
  }, 30_000);
});
