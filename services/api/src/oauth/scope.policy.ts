import { OAUTH_GRANTABLE_SCOPES, SCOPES, type Scope } from '@framedeck/auth';

/** Granted when a client asks for nothing we know (spec: Authentication, item 7). */
export const DEFAULT_OAUTH_SCOPE: Scope = 'analytics:read';

/** FrameDeck scopes that OAuth never grants: data:admin, events:write, events:synthetic. */
export const NEVER_GRANTED_SCOPES: readonly Scope[] = SCOPES.filter((s) => !OAUTH_GRANTABLE_SCOPES.includes(s));

export type ScopeRequest =
  { ok: true; scopes: Scope[] } | { ok: false; refused: Scope[]; reason: 'never-granted' | 'not-registered' };

/**
 * What an authorization request's `scope` parameter asks for, decided before any page is shown:
 * - a FrameDeck scope OAuth never grants → the whole request is refused (invalid_scope), so a
 *   tool never believes it holds data:admin;
 * - a grantable scope outside the client's registered `scope` (when it registered one) → refused
 *   too (RFC 7591 §2: the scopes the client may use);
 * - other unknown values (openid, offline_access, …) are ignored, as RFC 6749 §3.3 allows;
 * - nothing grantable left → analytics:read (or, for a client registered without it, its
 *   registered scopes).
 */
export function resolveScopeRequest(scopeParam: string | undefined, registered?: readonly Scope[]): ScopeRequest {
  const requested = new Set((scopeParam ?? '').split(' ').filter(Boolean));
  const refused = NEVER_GRANTED_SCOPES.filter((s) => requested.has(s));
  if (refused.length > 0) return { ok: false, refused, reason: 'never-granted' };
  const allowed = registered ?? OAUTH_GRANTABLE_SCOPES;
  const outside = OAUTH_GRANTABLE_SCOPES.filter((s) => requested.has(s) && !allowed.includes(s));
  if (outside.length > 0) return { ok: false, refused: outside, reason: 'not-registered' };
  const scopes = OAUTH_GRANTABLE_SCOPES.filter((s) => requested.has(s));
  if (scopes.length > 0) return { ok: true, scopes };
  return { ok: true, scopes: allowed.includes(DEFAULT_OAUTH_SCOPE) ? [DEFAULT_OAUTH_SCOPE] : [...allowed] };
}

/**
 * The `scope` member of a dynamic registration (RFC 7591 §2): space-separated values, each one
 * of scopes_supported (analytics:read, resources:write); anything else is refused whole
 * (invalid_client_metadata) rather than silently narrowed.
 */
export function resolveRegisteredScope(value: unknown): { ok: true; scopes: Scope[] } | { ok: false; problem: string } {
  if (typeof value !== 'string') return { ok: false, problem: 'scope must be a string of space-separated values' };
  const values = [...new Set(value.split(' ').filter(Boolean))];
  if (values.length === 0) return { ok: false, problem: 'scope is empty' };
  const unsupported = values.filter((v) => !(OAUTH_GRANTABLE_SCOPES as readonly string[]).includes(v));
  if (unsupported.length > 0) {
    return {
      ok: false,
      problem: `scope values not in scopes_supported (${OAUTH_GRANTABLE_SCOPES.join(' ')}): ${unsupported.join(' ')}`,
    };
  }
  return { ok: true, scopes: grantableScopes(values) };
}

/** Keeps only grantable scopes, whatever a token, a form or a row says. */
export function grantableScopes(scopes: Iterable<string>): Scope[] {
  const given = new Set(scopes);
  return OAUTH_GRANTABLE_SCOPES.filter((s) => given.has(s));
}
