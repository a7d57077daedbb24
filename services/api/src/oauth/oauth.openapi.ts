import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import { OAUTH_GRANTABLE_SCOPES } from '@framedeck/auth';
import { OAUTH_LIFETIMES, OAUTH_PATHS, OAUTH_REGISTRATIONS_PER_IP } from './oauth.constants.js';

const DAY = 86_400;

/** The OAuth rules in one place, shown on every OAuth operation of the OpenAPI document. */
export const OAUTH_RULES =
  'OAuth 2.1 authorization server (RFC 8414 metadata at /.well-known/oauth-authorization-server). ' +
  'Authorization code with PKCE S256 only (plain is refused), public clients only ' +
  '(token_endpoint_auth_method none). ' +
  `Scopes: ${OAUTH_GRANTABLE_SCOPES.join(', ')} only; no scope requested → analytics:read; ` +
  'requesting data:admin, events:write or events:synthetic → error invalid_scope (never granted). ' +
  `Lifetimes: authorization code ${OAUTH_LIFETIMES.authorizationCodeSeconds} s, single use (a replayed code ` +
  `revokes the grant); access token ${OAUTH_LIFETIMES.accessTokenSeconds / 60} min, opaque; refresh token ` +
  `rotated on every use, expires after ${OAUTH_LIFETIMES.refreshTokenIdleSeconds / DAY} unused days and ` +
  `${OAUTH_LIFETIMES.refreshTokenAbsoluteSeconds / DAY} days after consent at the latest; replaying a rotated ` +
  'refresh token revokes the whole grant (every access and refresh token). Errors use the RFC 6749 shape ' +
  '{"error","error_description"}, not problem+json.';

const OAuthError = z
  .object({ error: z.string(), error_description: z.string().optional() })
  .meta({ id: 'OAuthError', description: 'RFC 6749 §5.2 error.' });

const TokenRequest = z.union([
  z.object({
    grant_type: z.literal('authorization_code'),
    code: z.string(),
    redirect_uri: z.url(),
    client_id: z.string(),
    code_verifier: z.string().min(43).max(128),
  }),
  z.object({ grant_type: z.literal('refresh_token'), refresh_token: z.string(), client_id: z.string() }),
]);

const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    refresh_token: z.string().optional(),
    scope: z.string(),
  })
  .meta({ id: 'OAuthTokenResponse' });

const RegistrationRequest = z
  .object({
    redirect_uris: z
      .array(z.url())
      .min(1)
      .meta({ description: 'https, or http on a loopback host (127.0.0.1, [::1], localhost) only.' }),
    client_name: z.string().optional().meta({ description: 'Shown to the user on the consent page.' }),
    token_endpoint_auth_method: z.literal('none').optional(),
    grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])).optional(),
    response_types: z.array(z.literal('code')).optional(),
    scope: z
      .string()
      .optional()
      .meta({
        description:
          `Space-separated values of scopes_supported (${OAUTH_GRANTABLE_SCOPES.join(', ')}): the scopes the client ` +
          'may then request. Any other value → 400 invalid_client_metadata. In the answer: the scopes the client may ' +
          'request (all of scopes_supported when none was registered).',
      }),
    software_id: z.string().optional(),
    software_version: z.string().optional(),
  })
  .meta({ id: 'OAuthClientRegistration' });

const RegistrationResponse = RegistrationRequest.extend({
  client_id: z.string(),
  client_id_issued_at: z.number().int(),
}).meta({ id: 'OAuthClient' });

const form = (schema: z.ZodType) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema } },
});
const json = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema } } });

function op(operation: Omit<ZodOpenApiOperationObject, 'tags' | 'security'>): ZodOpenApiOperationObject {
  return {
    ...operation,
    tags: ['OAuth'],
    security: [],
    description: [operation.description, OAUTH_RULES].filter(Boolean).join('\n\n'),
  };
}

/** OpenAPI paths of the OAuth endpoints (relative to {base_url}, or to {app_origin} where stated). */
export function oauthOpenApiPaths(appOrigin: string): ZodOpenApiPathsObject {
  const atOrigin = [{ url: appOrigin, description: '{app_origin}' }];
  const relative = (path: string) => path.replace(/^\/api/, '');
  return {
    [OAUTH_PATHS.metadata]: {
      servers: atOrigin,
      get: op({
        operationId: 'getOAuthAuthorizationServerMetadata',
        summary: 'Authorization server metadata (RFC 8414)',
        responses: { 200: json('The metadata.', z.record(z.string(), z.unknown())) },
      }),
    },
    [OAUTH_PATHS.authorization]: {
      servers: atOrigin,
      get: op({
        operationId: 'oauthAuthorize',
        summary: 'Authorization endpoint (browser): sign-in, then consent (projects and scopes)',
        requestParams: {
          query: z.object({
            response_type: z.literal('code'),
            client_id: z.string(),
            redirect_uri: z.url(),
            code_challenge: z.string().min(43).max(128),
            code_challenge_method: z.literal('S256'),
            scope: z.string().optional().meta({ description: 'Space-separated; default analytics:read.' }),
            state: z.string().optional(),
          }),
        },
        responses: {
          303: { description: 'To the sign-in/consent pages, or back to redirect_uri with code (or error) and state.' },
          400: { description: 'Unknown client or unregistered redirect_uri: an error page (never a redirect).' },
        },
      }),
    },
    [relative(OAUTH_PATHS.token)]: {
      post: op({
        operationId: 'oauthToken',
        summary: 'Token endpoint: exchange a code (with its PKCE verifier) or rotate a refresh token',
        requestBody: form(TokenRequest),
        responses: {
          200: json('Tokens. A refresh token is returned with every grant and replaces the one sent.', TokenResponse),
          400: json('invalid_grant (used, expired or foreign code; wrong verifier; revoked grant), …', OAuthError),
        },
      }),
    },
    [relative(OAUTH_PATHS.registration)]: {
      post: op({
        operationId: 'oauthRegister',
        summary: 'Dynamic client registration (RFC 7591), public clients only',
        description: `At most ${OAUTH_REGISTRATIONS_PER_IP} registrations per client IP per hour.`,
        requestBody: { required: true, content: { 'application/json': { schema: RegistrationRequest } } },
        responses: {
          201: json('The registered client.', RegistrationResponse),
          400: json(
            'invalid_redirect_uri, invalid_client_metadata (e.g. a scope outside scopes_supported). Never carries ' +
              'WWW-Authenticate: registration needs no token.',
            OAuthError,
          ),
          429: json('Too many registrations from this address; see Retry-After.', OAuthError),
        },
      }),
    },
    [relative(OAUTH_PATHS.revocation)]: {
      post: op({
        operationId: 'oauthRevoke',
        summary: 'Token revocation (RFC 7009)',
        description: 'Revoking a refresh token revokes its whole grant; revoking an access token revokes that token.',
        requestBody: form(
          z.object({
            token: z.string(),
            token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
            client_id: z.string(),
          }),
        ),
        responses: { 200: { description: 'Revoked (also when the token was unknown, as RFC 7009 requires).' } },
      }),
    },
  };
}
