import { OAUTH_GRANTABLE_SCOPES, SCOPES, type Scope } from '@framedeck/auth';

/** Granted when a client asks for nothing we know (spec: Authentication, item 7). */
export const DEFAULT_OAUTH_SCOPE: Scope = 'analytics:read';

/** FrameDeck scopes that OAuth never grants: data:admin, events:write, events:synthetic. */
export const NEVER_GRANTED_SCOPES: readonly Scope[] = SCOPES.filter((s) => !OAUTH_GRANTABLE_SCOPES.includes(s));

export type ScopeRequest = { ok: true; scopes: Scope[] } | { ok: false; refused: Scope[] };

/**
 * What an authorization request's `scope` parameter asks for, decided before any page is shown:
 * - a FrameDeck scope OAuth never grants → the whole request is refused (invalid_scope), so a
 *   tool never believes it holds data:admin;
 * - other unknown values (openid, offline_access, …) are ignored, as RFC 6749 §3.3 allows;
 * - nothing grantable left → analytics:read.
 */
export function resolveScopeRequest(scopeParam: string | undefined): ScopeRequest {
  const requested = new Set((scopeParam ?? '').split(' ').filter(Boolean));
  const refused = NEVER_GRANTED_SCOPES.filter((s) => requested.has(s));
  if (refused.length > 0) return { ok: false, refused };
  const scopes = OAUTH_GRANTABLE_SCOPES.filter((s) => requested.has(s));
  return { ok: true, scopes: scopes.length > 0 ? scopes : [DEFAULT_OAUTH_SCOPE] };
}

/** Keeps only grantable scopes, whatever a token, a form or a row says. */
export function grantableScopes(scopes: Iterable<string>): Scope[] {
  const given = new Set(scopes);
  return OAUTH_GRANTABLE_SCOPES.filter((s) => given.has(s));
}
