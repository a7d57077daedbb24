import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Synchronizer CSRF tokens without server-side state: a token is an HMAC of what it is bound
 * to (a dashboard session, an OAuth interaction), so only a page this server rendered for that
 * session can hold it, and a token from one session is useless in another.
 */
export class CsrfTokens {
  constructor(private readonly key: Buffer) {
    if (key.length < 32) throw new Error('the CSRF key needs at least 256 bits');
  }

  issue(binding: string): string {
    return createHmac('sha256', this.key).update(binding, 'utf8').digest('base64url');
  }

  verify(binding: string, token: unknown): boolean {
    if (typeof token !== 'string' || token.length === 0 || token.length > 128) return false;
    const expected = Buffer.from(this.issue(binding));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
