import { describe, expect, it } from 'vitest';
import { hashApiKey, issueApiKey, looksLikeApiKey } from './api-key.js';
import { hasScope, KEY_PRESETS, OAUTH_GRANTABLE_SCOPES } from './scopes.js';

describe('API keys', () => {
  it('issues fd_ keys with 256 random bits and a SHA-256 hash of the whole key', () => {
    const key = issueApiKey();
    expect(key.raw).toMatch(/^fd_[A-Za-z0-9_-]{43}$/);
    expect(key.hash.equals(hashApiKey(key.raw))).toBe(true);
    expect(key.hash).toHaveLength(32);
    expect(key.displayPrefix).toBe(key.raw.slice(0, 11));
    expect(issueApiKey().raw).not.toBe(key.raw);
  });

  it('screens obviously malformed header values before any lookup', () => {
    expect(looksLikeApiKey(issueApiKey().raw)).toBe(true);
    expect(looksLikeApiKey(undefined)).toBe(false);
    expect(looksLikeApiKey('short')).toBe(false);
    expect(looksLikeApiKey("fd_abcdefghijklmnop' OR 1=1")).toBe(false);
  });

  it('gives presets exactly the spec scopes', () => {
    expect(KEY_PRESETS).toEqual({
      ingest: ['events:write'],
      read: ['analytics:read'],
      readWrite: ['analytics:read', 'resources:write'],
      full: ['analytics:read', 'resources:write', 'data:admin'],
      ci: ['events:write', 'events:synthetic'],
    });
    expect(hasScope(KEY_PRESETS.full, 'data:admin')).toBe(true);
    expect(hasScope(KEY_PRESETS.readWrite, 'data:admin')).toBe(false);
    expect(OAUTH_GRANTABLE_SCOPES).toEqual(['analytics:read', 'resources:write']);
  });
});
