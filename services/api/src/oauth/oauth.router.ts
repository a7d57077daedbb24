import { Router, type RequestHandler } from 'express';
import type Provider from 'oidc-provider';
import type { SlidingWindowCounter } from '@framedeck/rate-limit';
import { OAUTH_PATHS, OAUTH_REGISTRATIONS_PER_IP } from './oauth.constants.js';
import { oauthMetadataRouter } from './oauth-metadata.router.js';
import { registrationScope } from './registration.metadata.js';

/** The endpoints the library answers itself; everything else never reaches it. */
function isProviderPath(path: string): boolean {
  return (
    path === OAUTH_PATHS.authorization ||
    path.startsWith(`${OAUTH_PATHS.authorization}/`) || // resuming after the sign-in/consent pages
    path === OAUTH_PATHS.token ||
    path === OAUTH_PATHS.registration ||
    path === OAUTH_PATHS.revocation
  );
}

/**
 * Everything OAuth on {app_origin}, mounted at the root before the /api router: metadata, the
 * interaction pages, and the library's endpoints (authorize, token, register, revoke).
 * NOTE: the library's OpenID discovery document and JWKS are deliberately not exposed: FrameDeck
 * is an OAuth 2.1 authorization server, not an OpenID provider.
 */
export function oauthRouter(deps: {
  provider: Provider;
  issuer: string;
  apiResource: string;
  interactions: Router;
  registrations: SlidingWindowCounter;
}): Router {
  const router = Router();
  router.use(oauthMetadataRouter(deps.issuer, deps.apiResource));
  router.use(deps.interactions);
  router.post(OAUTH_PATHS.registration, registrationLimit(deps.registrations), registrationScope());
  const callback = deps.provider.callback();
  router.use((req, res, next) => (isProviderPath(req.path) ? void callback(req, res) : next()));
  return router;
}

/**
 * Registration is open to anyone (RFC 7591, no initial access token), so it is rate limited per
 * client IP: tools register once, floods fill the clients table.
 */
function registrationLimit(counter: SlidingWindowCounter): RequestHandler {
  return async (req, res, next) => {
    const decision = await counter.hit(`oauth-register:${req.ip ?? 'unknown'}`, OAUTH_REGISTRATIONS_PER_IP);
    if (decision.allowed) return next();
    const retryAfter = Math.max(1, Math.ceil((decision.resetAtMs - Date.now()) / 1000));
    res
      .status(429)
      .set({ 'Retry-After': String(retryAfter), 'Cache-Control': 'no-store' })
      .json({ error: 'temporarily_unavailable', error_description: 'Too many client registrations; retry later.' });
  };
}
