import type { RequestHandler } from 'express';
import { isScope, OAUTH_GRANTABLE_SCOPES } from '@framedeck/auth';
import { problems } from '@framedeck/problem';
import type { ApiKeyAuthenticator } from './api-key.authenticator.js';
import type { BearerTokenVerifier, Principal, SessionAuthenticator } from './principal.js';

const BEARER = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;

/**
 * Works out who is calling and stores it on `req.principal`, without refusing anything yet:
 * the rate limiter runs next (a known tenant is counted, and every answer, a 401 included,
 * carries the rate-limit headers), then `requireAuthentication` refuses.
 *
 * Rules: X-API-Key wins when both headers are sent (an invalid key is a 401 even with a valid
 * token: no silent fallback). `accepts: 'apiKey'` ignores bearer tokens (→ 401). Without a
 * verifier, every bearer token is a 401. The dashboard session cookie counts only when neither
 * header is sent; `accepts: 'session'` considers nothing else.
 */
export function identify(
  apiKeys: ApiKeyAuthenticator,
  bearer: BearerTokenVerifier | undefined,
  accepts: 'any' | 'apiKey' | 'session',
  session?: SessionAuthenticator,
): RequestHandler {
  return async (req, _res, next) => {
    try {
      if (accepts === 'session') {
        req.principal = (await session?.authenticate(req)) ?? undefined;
        if (!req.principal) req.authFailure = 'This endpoint needs a signed-in dashboard session.';
        return next();
      }
      const key = req.get('x-api-key');
      if (key !== undefined) {
        req.principal = await apiKeys.authenticate(key.trim());
        if (!req.principal) req.authFailure = 'Invalid or deactivated API key.';
        return next();
      }
      const authorization = req.get('authorization');
      if (authorization === undefined) {
        if (accepts === 'any' && session) req.principal = (await session.authenticate(req)) ?? undefined;
        return next();
      }
      const token = BEARER.exec(authorization)?.[1];
      if (!token) req.authFailure = 'Unsupported Authorization header: send "Bearer <access token>" or X-API-Key.';
      else if (accepts === 'apiKey') req.authFailure = 'This endpoint accepts only an API key (X-API-Key).';
      else if (!bearer) req.authFailure = 'Invalid or expired access token.';
      else {
        const grant = await bearer.verify(token);
        if (grant) req.principal = bearerPrincipal(grant);
        else req.authFailure = 'Invalid or expired access token.';
      }
      next();
    } catch (error) {
      // Postgres (or the verifier's store) is down: answer after the rate limiter, as a 503.
      // (A session's failed CSRF check arrives here too, as its 403 ApiProblem.)
      req.authError = error;
      next();
    }
  };
}

function bearerPrincipal(grant: Awaited<ReturnType<BearerTokenVerifier['verify']>> & object): Principal {
  return {
    tenantId: grant.tenantId,
    projectIds: [...grant.projectIds],
    // Defence in depth: OAuth may never grant data:admin or events:* (spec, Authentication 7).
    scopes: grant.scopes.filter(isScope).filter((s) => OAUTH_GRANTABLE_SCOPES.includes(s)),
    credential: { type: 'bearer', clientId: grant.clientId, subject: grant.subject },
  };
}

/** Refuses requests that `identify` could not attribute to a credential. */
export const requireAuthentication: RequestHandler = (req, _res, next) => {
  if (req.authError !== undefined) return next(req.authError);
  if (!req.principal) {
    return next(
      problems.unauthorized(req.authFailure ?? 'Missing credentials: send X-API-Key or Authorization: Bearer.'),
    );
  }
  next();
};
