import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every key we issue starts with this; it only helps humans and secret scanners recognise it. */
export const API_KEY_PREFIX = 'fd_';
const RANDOM_BYTES = 32; // 256 bits: guessing is hopeless, so a fast hash suffices at rest.
const DISPLAY_LENGTH = API_KEY_PREFIX.length + 8;

export type IssuedApiKey = {
  /** Shown to the user exactly once; never stored or logged. */
  raw: string;
  /** What we store and look keys up by. */
  hash: Buffer;
  /** Enough of the key to tell keys apart in a list. */
  displayPrefix: string;
};

export function issueApiKey(): IssuedApiKey {
  const raw = API_KEY_PREFIX + randomBytes(RANDOM_BYTES).toString('base64url');
  return { raw, hash: hashApiKey(raw), displayPrefix: raw.slice(0, DISPLAY_LENGTH) };
}

export function hashApiKey(raw: string): Buffer {
  return createHash('sha256').update(raw, 'utf8').digest();
}

/**
 * Cheap shape check before any lookup, so junk headers never reach the database.
 * NOTE: passing it means nothing about validity; only the hash lookup decides.
 */
export function looksLikeApiKey(raw: string | undefined): raw is string {
  return typeof raw === 'string' && raw.length >= 16 && raw.length <= 128 && /^[A-Za-z0-9_-]+$/.test(raw);
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
