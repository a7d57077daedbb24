import { Router } from 'express';
import type Provider from 'oidc-provider';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { Logger } from '@framedeck/logging';
import { deleteExpiredOAuthModels, deleteOrphanOAuthConsents, type Pool } from '@framedeck/postgres';
import type { Redis } from '@framedeck/redis';
import { failOpenCounter } from './http/fail-open-counter.js';
import type { RouteDefinition } from './http/route.js';
import { authorizedAppsRoutes } from './oauth/authorized-apps.route.js';
import { interactionRouter } from './oauth/interaction.router.js';
import { OAuthBearerVerifier } from './oauth/oauth-bearer.verifier.js';
import { bearerChallenge } from './oauth/oauth-metadata.router.js';
import { OAuthGrants } from './oauth/oauth-grants.service.js';
import { oauthOpenApiPaths } from './oauth/oauth.openapi.js';
import { DEFAULT_CLI_CLIENT_ID } from './oauth/cli-client.js';
import { createOAuthProvider } from './oauth/oauth-provider.js';
import { oauthRouter } from './oauth/oauth.router.js';
import { errorPage } from './oauth/views/oauth-pages.view.js';
import { pageHeaders } from './oauth/views/page.js';
import { CsrfTokens } from './security/csrf.js';
import type { ServerSecrets } from './security/server-secrets.js';
import { DashboardSessions } from './session/dashboard-sessions.js';
import { CookieSessionAuthenticator } from './session/session.authenticator.js';
import { SessionCookie } from './session/session-cookie.js';
import { sessionRoutes } from './session/session.route.js';
import { SIGN_IN_LIMITS, UserSignIn } from './session/user-sign-in.js';

export type IdentityDeps = {
  pool: Pool;
  redis: Redis;
  logger: Logger;
  /** {app_origin}: the OAuth issuer, and the only origin the session cookie answers to. */
  appOrigin: string;
  /** loadServerSecrets(pool) (src/security/server-secrets.ts). */
  secrets: ServerSecrets;
  /** Tests: a private Redis namespace for the sign-in and registration limits. Default "rl:". */
  rateLimitKeyPrefix?: string;
  /** client_id of the pre-registered command-line client. Default fdc_framedash_cli (the Framedash CLI's). */
  cliClientId?: string;
  /** How often OAuth apps' last-use times are written. Default one minute. */
  lastUsedFlushMs?: number;
};

/** Who a browser user or a third-party tool is: dashboard sessions and the OAuth server. */
export type Identity = {
  /** Mount at the app root, before the /api router. */
  router: Router;
  bearerVerifier: OAuthBearerVerifier;
  sessionAuthenticator: CookieSessionAuthenticator;
  /** Registry routes: dashboard sign-in (/v1/session) and settings (authorized apps). */
  routes: RouteDefinition[];
  /** OpenAPI paths of the endpoints outside the registry: oidc-provider's OAuth endpoints. */
  openApiPaths: ZodOpenApiPathsObject;
  provider: Provider;
  /** WWW-Authenticate of a 401 from the REST API, pointing to the protected resource metadata. */
  bearerChallenge: (invalidToken: boolean) => string;
  /** Flushes last-use times and stops timers. */
  close: () => Promise<void>;
};

const HOUSEKEEPING_MS = 10 * 60_000;

export function createIdentity(deps: IdentityDeps): Identity {
  const { pool, logger, appOrigin } = deps;
  const limit = (windowMs: number, what: string) =>
    failOpenCounter({ redis: deps.redis, logger, windowMs, what, keyPrefix: deps.rateLimitKeyPrefix });
  const apiResource = `${appOrigin}/api`;
  const csrf = new CsrfTokens(deps.secrets.csrfKey);
  const signIn = new UserSignIn({
    db: pool,
    attempts: limit(SIGN_IN_LIMITS.windowMinutes * 60_000, 'sign-in limit'),
  });
  const sessions = new DashboardSessions({ db: pool, csrf });
  const cookie = new SessionCookie(appOrigin);
  const sessionAuthenticator = new CookieSessionAuthenticator({ sessions, cookie, appOrigin });

  const provider = createOAuthProvider({
    issuer: appOrigin,
    apiResource,
    pool,
    secrets: deps.secrets,
    cliClientId: deps.cliClientId ?? DEFAULT_CLI_CLIENT_ID,
    renderError: (ctx, { error, description }) => {
      ctx.set(pageHeaders());
      ctx.body = errorPage('Authorization failed', description ?? error);
    },
  });
  provider.on('server_error', (_ctx, error) => logger.error({ err: error }, 'OAuth server error'));
  const grants = new OAuthGrants({ provider, pool, apiResource });
  const bearerVerifier = new OAuthBearerVerifier(
    { provider, pool, apiResource, logger },
    { lastUsedFlushMs: deps.lastUsedFlushMs ?? 60_000 },
  );
  const interactions = interactionRouter({ provider, pool, signIn, grants, csrf, logger });
  const oauth = oauthRouter({
    provider,
    issuer: appOrigin,
    apiResource,
    interactions,
    registrations: limit(60 * 60_000, 'OAuth registration limit'),
  });

  // Expired rows are already invisible; this only reclaims their space, on every instance.
  const housekeeping = setInterval(() => {
    void Promise.all([deleteExpiredOAuthModels(pool), deleteOrphanOAuthConsents(pool), sessions.pruneExpired()]).catch(
      (error: unknown) => logger.warn({ err: error }, 'identity housekeeping failed'),
    );
  }, HOUSEKEEPING_MS).unref();

  return {
    router: Router().use(oauth),
    bearerVerifier,
    sessionAuthenticator,
    routes: [
      ...authorizedAppsRoutes(grants),
      ...sessionRoutes({ pool, sessions, cookie, authenticator: sessionAuthenticator, signIn, appOrigin }),
    ],
    openApiPaths: oauthOpenApiPaths(appOrigin),
    provider,
    bearerChallenge: (invalidToken) => bearerChallenge(appOrigin, apiResource, invalidToken),
    close: async () => {
      clearInterval(housekeeping);
      await bearerVerifier.close();
    },
  };
}
