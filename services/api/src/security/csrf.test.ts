import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CsrfTokens } from './csrf.js';

describe('CsrfTokens', () => {
  const csrf = new CsrfTokens(randomBytes(32));

  it('accepts the token issued for the same binding only', () => {
    const token = csrf.issue('session:abc');
    expect(csrf.verify('session:abc', token)).toBe(true);
    expect(csrf.verify('session:abd', token)).toBe(false);
    expect(csrf.verify('session:abc', token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'))).toBe(false);
  });

  it('refuses missing, empty and non-string tokens', () => {
    for (const token of [undefined, null, '', 42, ['x'], 'x'.repeat(500)]) {
      expect(csrf.verify('session:abc', token)).toBe(false);
    }
  });

  it('depends on the key', () => {
    const other = new CsrfTokens(randomBytes(32));
    expect(other.verify('session:abc', csrf.issue('session:abc'))).toBe(false);
  });

  it('refuses a short key', () => {
    expect(() => new CsrfTokens(randomBytes(16))).toThrow(/256 bits/);
  });
});
