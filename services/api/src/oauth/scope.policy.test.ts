import { describe, expect, it } from 'vitest';
import { grantableScopes, NEVER_GRANTED_SCOPES, resolveRegisteredScope, resolveScopeRequest } from './scope.policy.js';

describe('OAuth scope policy', () => {
  it('never grants data:admin, events:write or events:synthetic', () => {
    expect([...NEVER_GRANTED_SCOPES].sort()).toEqual(['data:admin', 'events:synthetic', 'events:write']);
    for (const scope of NEVER_GRANTED_SCOPES) {
      expect(resolveScopeRequest(`analytics:read ${scope}`)).toEqual({
        ok: false,
        refused: [scope],
        reason: 'never-granted',
      });
    }
    expect(grantableScopes(['data:admin', 'events:write', 'analytics:read'])).toEqual(['analytics:read']);
  });

  it('grants analytics:read when nothing (or nothing known) is requested', () => {
    expect(resolveScopeRequest(undefined)).toEqual({ ok: true, scopes: ['analytics:read'] });
    expect(resolveScopeRequest('')).toEqual({ ok: true, scopes: ['analytics:read'] });
    expect(resolveScopeRequest('openid offline_access')).toEqual({ ok: true, scopes: ['analytics:read'] });
  });

  it('keeps the grantable scopes requested, ignoring unknown ones and duplicates', () => {
    expect(resolveScopeRequest('resources:write')).toEqual({ ok: true, scopes: ['resources:write'] });
    expect(resolveScopeRequest('offline_access resources:write analytics:read resources:write')).toEqual({
      ok: true,
      scopes: ['analytics:read', 'resources:write'],
    });
  });

  it('keeps a client to the scopes it registered', () => {
    expect(resolveScopeRequest('analytics:read', ['analytics:read'])).toEqual({ ok: true, scopes: ['analytics:read'] });
    expect(resolveScopeRequest('resources:write', ['analytics:read'])).toEqual({
      ok: false,
      refused: ['resources:write'],
      reason: 'not-registered',
    });
    expect(resolveScopeRequest(undefined, ['resources:write'])).toEqual({ ok: true, scopes: ['resources:write'] });
    expect(resolveScopeRequest(undefined, ['analytics:read', 'resources:write'])).toEqual({
      ok: true,
      scopes: ['analytics:read'],
    });
  });

  it('accepts a registration scope made of scopes_supported values only', () => {
    expect(resolveRegisteredScope('analytics:read')).toEqual({ ok: true, scopes: ['analytics:read'] });
    expect(resolveRegisteredScope('resources:write analytics:read analytics:read')).toEqual({
      ok: true,
      scopes: ['analytics:read', 'resources:write'],
    });
    for (const refused of ['data:admin', 'analytics:read openid', '', ' ', 42]) {
      expect(resolveRegisteredScope(refused).ok, String(refused)).toBe(false);
    }
  });
});
