import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { OAUTH_GRANTABLE_SCOPES, type Scope } from '@framedeck/auth';
import { findOAuthConsentOf, findUserById, type Pool } from '@framedeck/postgres';
import type { ServerSecrets } from '../security/server-secrets.js';
import { cliClientMetadata } from './cli-client.js';
import { OAUTH_LIFETIMES, OAUTH_PATHS } from './oauth.constants.js';
import { postgresAdapterFactory } from './postgres.adapter.js';
import { redirectUriProblem } from './redirect-uri.policy.js';
import { registrationAnswer, REGISTERED_SCOPE } from './registration.metadata.js';
import { resolveRegisteredScope, resolveScopeRequest } from './scope.policy.js';

export type OAuthProviderOptions = {
  /** {app_origin}; the issuer identifier. */
  issuer: string;
  /** The resource indicator (and token audience) of the REST API: {base_url}. */
  apiResource: string;
  pool: Pool;
  secrets: Pick<ServerSecrets, 'cookieKeys' | 'signingKeys'>;
  /** client_id of the pre-registered command-line client (cli-client.ts). */
  cliClientId: string;
  /** Renders the library's own error pages (bad client_id, bad redirect_uri, …). */
  renderError: (ctx: KoaContextWithOIDC, error: { error: string; description?: string | undefined }) => void;
};

/**
 * The OAuth 2.1 authorization server: oidc-provider (an OpenID-certified implementation) with
 * everything FrameDeck does not offer switched off. What is left:
 * - authorization code with PKCE S256 (plain refused, PKCE required), public clients only;
 * - refresh tokens, rotated on every use; a replayed (already rotated) refresh token or a
 *   replayed code revokes the whole grant (the library's reuse detection);
 * - dynamic registration (RFC 7591), revocation (RFC 7009), and one pre-registered public client,
 *   the command-line tool's (cli-client.ts);
 * - opaque access tokens for one resource, the REST API, carrying only analytics:read and
 *   resources:write.
 * No implicit, password, client_credentials, device, CIBA, PAR, introspection, userinfo or
 * OpenID Connect id tokens.
 */
export function createOAuthProvider(options: OAuthProviderOptions): Provider {
  const { pool, apiResource } = options;
  // No registration access token: client management (RFC 7592) is not offered, so the token
  // would be a stored secret good for nothing. NOTE: a variable, because @types/oidc-provider
  // lacks this (real, documented) option.
  const registration = { enabled: true, issueRegistrationAccessToken: false };
  const configuration: Configuration = {
    adapter: postgresAdapterFactory(pool),
    jwks: { keys: options.secrets.signingKeys },
    cookies: {
      keys: options.secrets.cookieKeys,
      names: { session: 'fd_oauth_session', interaction: 'fd_oauth_interaction', resume: 'fd_oauth_resume' },
      // NOTE: the library's default for its long-lived cookie is SameSite=None; nothing here
      // needs cross-site cookies, so both are Lax and signed.
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    routes: {
      authorization: OAUTH_PATHS.authorization,
      token: OAUTH_PATHS.token,
      registration: OAUTH_PATHS.registration,
      revocation: OAUTH_PATHS.revocation,
      jwks: OAUTH_PATHS.jwks,
    },
    clients: [cliClientMetadata(options.cliClientId)],
    clientAuthMethods: ['none'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    responseTypes: ['code'],
    // Resource-server scopes are declared on the resource below; no OpenID scopes at all.
    scopes: [],
    claims: {},
    pkce: { methods: ['S256'], required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration,
      revocation: { enabled: true },
      introspection: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      clientCredentials: { enabled: false },
      deviceFlow: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => apiResource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== apiResource) throw new errors.InvalidTarget('unknown resource');
          return {
            scope: OAUTH_GRANTABLE_SCOPES.join(' '),
            accessTokenFormat: 'opaque',
            accessTokenTTL: OAUTH_LIFETIMES.accessTokenSeconds,
          };
        },
      },
    },
    extraParams: {
      // Runs after the client and its redirect_uri were validated, so a refusal is redirected
      // back to the client as error=invalid_scope (RFC 6749 §4.1.2.1).
      scope: (ctx, value, client) => {
        const request = resolveScopeRequest(value, registeredScopesOf(client?.metadata()));
        if (!request.ok) {
          throw new errors.InvalidScope(
            request.reason === 'never-granted'
              ? `${request.refused.join(', ')} can never be granted through OAuth; use an API key`
              : `${request.refused.join(', ')} is outside the scope this client registered`,
            request.refused.join(' '),
          );
        }
        ctx.oidc.params!.scope = request.scopes.join(' ');
      },
    },
    extraClientMetadata: {
      // RFC 7591 members we keep so tools can identify themselves.
      // registered_scope: the registration's `scope` (checked and renamed on the way in by
      // registration.metadata.ts, since the library accepts only its own OpenID scopes there).
      properties: ['software_id', 'software_version', REGISTERED_SCOPE],
      // NOTE: the library calls this once per property above for every client it validates
      // (registration and load), whatever the property; the first call checks the whole
      // document's redirect URIs, which the built-in rules allow more widely than we do.
      validator: (_ctx, key, value, metadata) => {
        if (key === REGISTERED_SCOPE && value !== undefined && !resolveRegisteredScope(value).ok) {
          throw new errors.InvalidClientMetadata('scope holds values outside scopes_supported');
        }
        if (key !== 'software_id') return;
        // NOTE: the library mints a client_secret when the registration request omits
        // token_endpoint_auth_method (before our default "none" applies); a public client has no
        // use for one, so it is neither stored nor returned.
        if (metadata.token_endpoint_auth_method === 'none') {
          delete metadata.client_secret;
          delete metadata.client_secret_expires_at;
        }
        for (const uri of metadata.redirect_uris ?? []) {
          const problem = redirectUriProblem(uri);
          if (problem) throw new errors.InvalidRedirectUri(`redirect_uris: ${uri} ${problem}`);
        }
      },
    },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // Tokens live by their own lifetimes, not by the browser sign-in that approved them.
    expiresWithSession: () => false,
    ttl: {
      AuthorizationCode: OAUTH_LIFETIMES.authorizationCodeSeconds,
      AccessToken: OAUTH_LIFETIMES.accessTokenSeconds,
      // Sliding: each rotation gets a fresh idle lifetime, but never past the absolute end
      // counted from the first refresh token of the grant.
      RefreshToken: (_ctx, token) => {
        const now = Math.floor(Date.now() / 1000);
        const firstIssuedAt = token.iiat ?? token.iat ?? now;
        const left = firstIssuedAt + OAUTH_LIFETIMES.refreshTokenAbsoluteSeconds - now;
        return Math.max(1, Math.min(OAUTH_LIFETIMES.refreshTokenIdleSeconds, left));
      },
      Grant: OAUTH_LIFETIMES.refreshTokenAbsoluteSeconds,
      Session: OAUTH_LIFETIMES.signInSessionSeconds,
      Interaction: OAUTH_LIFETIMES.interactionSeconds,
    },
    interactions: { url: (_ctx, interaction) => `${OAUTH_PATHS.interaction}/${interaction.uid}` },
    findAccount: async (_ctx, id) => {
      const user = await findUserById(pool, id).catch(() => undefined); // not a uuid → no one
      return user ? { accountId: user.id, claims: () => ({ sub: user.id }) } : undefined;
    },
    // One grant per user and client (the one recorded with the consent), whichever browser the
    // user signs in from; re-authorizing within it skips the consent page.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const consent = await findOAuthConsentOf(pool, accountId, clientId);
      return consent ? ctx.oidc.provider.Grant.find(consent.grantId) : undefined;
    },
    renderError: (ctx, out) => options.renderError(ctx, { error: out.error, description: out.error_description }),
  };
  const provider = new Provider(options.issuer, configuration);
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.method !== 'POST' || ctx.path !== OAUTH_PATHS.registration) return;
    // NOTE: the library challenges every registration error with WWW-Authenticate (meant for a
    // registration access token, which FrameDeck does not use); strict clients read a 400 with
    // it as an authentication challenge.
    ctx.remove('WWW-Authenticate');
    if (ctx.status === 201 && ctx.body && typeof ctx.body === 'object') {
      ctx.body = registrationAnswer(ctx.body as Record<string, unknown>);
    }
  });
  return provider;
}

function registeredScopesOf(metadata: Record<string, unknown> | undefined): Scope[] | undefined {
  const registered = metadata?.[REGISTERED_SCOPE];
  if (registered === undefined) return undefined;
  const parsed = resolveRegisteredScope(registered);
  return parsed.ok ? parsed.scopes : [];
}
