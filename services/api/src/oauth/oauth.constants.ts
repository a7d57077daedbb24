/** Where the OAuth endpoints live on {app_origin} (spec: "OAuth endpoints"). */
export const OAUTH_PATHS = {
  metadata: '/.well-known/oauth-authorization-server',
  authorization: '/oauth/authorize',
  token: '/api/oauth/token',
  registration: '/api/oauth/register',
  revocation: '/api/oauth/revoke',
  jwks: '/oauth/jwks',
  /** Sign-in and consent pages: /oauth/interaction/{uid}. */
  interaction: '/oauth/interaction',
} as const;

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Lifetimes (the spec leaves them to us; documented in the README and the OpenAPI document).
 * Short access tokens keep a leaked one's damage small; refresh tokens rotate on every use.
 */
export const OAUTH_LIFETIMES = {
  /** Single use; long enough for a redirect and a token request. */
  authorizationCodeSeconds: MINUTE,
  accessTokenSeconds: HOUR,
  /** A refresh token unused for 30 days expires; each use gives a fresh 30 days… */
  refreshTokenIdleSeconds: 30 * DAY,
  /** …but never beyond 90 days after the user's consent: then the user signs in again. */
  refreshTokenAbsoluteSeconds: 90 * DAY,
  /** The authorization server's own browser sign-in (skips the password for an hour). */
  signInSessionSeconds: HOUR,
  /** Time to finish the sign-in and consent pages. */
  interactionSeconds: 10 * MINUTE,
} as const;

/** Dynamic registrations accepted per client IP per hour. */
export const OAUTH_REGISTRATIONS_PER_IP = 30;
