import { Router } from 'express';
import { OAUTH_GRANTABLE_SCOPES } from '@framedeck/auth';
import { OAUTH_PATHS } from './oauth.constants.js';

/**
 * RFC 8414 authorization server metadata, written out rather than derived from the library's
 * OpenID discovery document, so what we promise is exactly what is enforced: code + PKCE S256
 * only, public clients only, two scopes.
 */
export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}${OAUTH_PATHS.authorization}`,
    token_endpoint: `${issuer}${OAUTH_PATHS.token}`,
    registration_endpoint: `${issuer}${OAUTH_PATHS.registration}`,
    revocation_endpoint: `${issuer}${OAUTH_PATHS.revocation}`,
    scopes_supported: [...OAUTH_GRANTABLE_SCOPES],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/api/docs`,
  };
}

/** RFC 9728 protected resource metadata for the REST API, so clients can find us from a 401. */
export function protectedResourceMetadata(issuer: string, apiResource: string) {
  return {
    resource: apiResource,
    authorization_servers: [issuer],
    scopes_supported: [...OAUTH_GRANTABLE_SCOPES],
    bearer_methods_supported: ['header'],
  };
}

/** Where the protected resource metadata of `apiResource` is served (RFC 9728 §3.1: the resource's path appended). */
export function protectedResourceMetadataPath(apiResource: string): string {
  return `/.well-known/oauth-protected-resource${new URL(apiResource).pathname}`;
}

/**
 * The challenge of a 401 from the REST API (RFC 6750 §3), pointing to the protected resource
 * metadata (RFC 9728 §5.1) from which a client finds the authorization server.
 * `invalidToken`: a bearer token was sent and refused (error="invalid_token").
 */
export function bearerChallenge(issuer: string, apiResource: string, invalidToken: boolean): string {
  const metadata = `${issuer}${protectedResourceMetadataPath(apiResource)}`;
  return `Bearer realm="FrameDeck API"${invalidToken ? ', error="invalid_token"' : ''}, resource_metadata="${metadata}"`;
}

export function oauthMetadataRouter(issuer: string, apiResource: string): Router {
  const router = Router();
  const server = authorizationServerMetadata(issuer);
  const resource = protectedResourceMetadata(issuer, apiResource);
  const resourcePath = protectedResourceMetadataPath(apiResource);
  router.get(OAUTH_PATHS.metadata, (_req, res) => {
    // Public and static: tools may fetch it from a browser, and caches may keep it an hour.
    res.set({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=3600' }).json(server);
  });
  router.get(['/.well-known/oauth-protected-resource', resourcePath], (_req, res) => {
    res.set({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=3600' }).json(resource);
  });
  return router;
}
