import type { Scope } from '@framedeck/auth';
import type { Request } from 'express';
import type { RateLimitInfo } from 'express-rate-limit';

/**
 * Who is calling, whatever the credential: the one type every route, the rate limiter and the
 * project check work with.
 */
export type Principal = {
  tenantId: string;
  /** The projects this credential may touch: an API key's own project, a token's consented ones. */
  projectIds: readonly string[];
  scopes: readonly Scope[];
  credential: ApiKeyCredential | BearerCredential | SessionCredential;
};

export type ApiKeyCredential = {
  type: 'apiKey';
  keyId: string;
  projectId: string;
  projectName: string;
  planId: string;
};

export type BearerCredential = { type: 'bearer'; clientId?: string; subject?: string };

/** A signed-in dashboard user (a tenant owner), authenticated by the session cookie. */
export type SessionCredential = { type: 'session'; userId: string; email: string; planId: string };

/** What a bearer-token verifier vouches for. */
export type BearerGrant = {
  tenantId: string;
  projectIds: readonly string[];
  scopes: readonly string[];
  clientId?: string;
  subject?: string;
};

/**
 * The seam OAuth plugs into: resolves an access token to its grant, or null when the token is
 * unknown, expired or revoked (→ 401). Throw only for infrastructure failures.
 * NOTE: whatever a verifier returns, scopes outside OAUTH_GRANTABLE_SCOPES are dropped by the
 * authenticator, so a token can never reach data:admin or events:* operations.
 */
export interface BearerTokenVerifier {
  verify(token: string): Promise<BearerGrant | null>;
}

/**
 * The seam dashboard sessions plug into (src/session): the principal of the request's session
 * cookie, or null when there is none or it is not live. Throws an ApiProblem (403) when an
 * unsafe request with a live session fails the CSRF check.
 */
export interface SessionAuthenticator {
  authenticate(req: Request): Promise<Principal | null>;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the authenticator when the request carries a credential the route accepts. */
    principal?: Principal;
    /** Why authentication failed, when a credential was sent but not accepted. */
    authFailure?: string;
    /** An infrastructure failure met while authenticating, answered after rate limiting. */
    authError?: unknown;
    /** The rate-limit bucket this request counts in (set by the rate limiter). */
    rateLimitKey?: string;
    /** Set by express-rate-limit: the quota this request was counted in. */
    rateLimit?: RateLimitInfo;
  }
}
