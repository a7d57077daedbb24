import { OAUTH_GRANTABLE_SCOPES } from '@framedeck/auth';
import { z } from 'zod';
import {
  createDocument,
  type oas32,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from 'zod-openapi';
import { describeAliases } from './field-aliases.js';
import { ProblemSchema } from './problem.schema.js';
import type { RouteDefinition } from './route.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid parameters or body.',
  401: 'Missing, invalid or deactivated credential (or a credential kind this endpoint refuses).',
  403: 'The credential lacks the required scope, or a plan limit was reached.',
  404: 'Not found, or a project this credential cannot access (same answer for both).',
  409: 'Conflicts with the current state.',
  413: 'Request body too large.',
  415: 'Request body is not application/json.',
  429: 'Rate limit exceeded; see Retry-After.',
  500: 'Internal error.',
  503: 'A backing service is temporarily unavailable; retry after Retry-After.',
};

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

const PROJECT_HEADER = z.object({
  'X-Project-Id': z
    .uuid()
    .meta({ description: 'The project this request is about (paths that are not project-scoped).' }),
});

/**
 * The OpenAPI 3.1 document, generated from the route definitions — the same zod schemas that
 * validate requests. Each operation carries `x-required-scope` and its security requirement.
 */
export function buildOpenApiDocument(
  routes: readonly RouteDefinition[],
  servers: { baseUrl: string },
  /** Endpoints outside the registry (oidc-provider's OAuth endpoints, the ingest gateway), documented by their owners. */
  extraPaths: ZodOpenApiPathsObject = {},
): oas32.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = { ...extraPaths };
  for (const route of routes) {
    (paths[route.path] ??= {})[route.method] = operation(route);
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'FrameDeck API',
      version: '1.0.0',
      description:
        'Game telemetry analytics. Authenticate with X-API-Key or Authorization: Bearer (OAuth 2.1). ' +
        'Rate limits are per tenant over a sliding hour; every response carries X-RateLimit-* headers. ' +
        'Every response of the API and of the ingest service carries X-Request-Id, the id under which its ' +
        'log lines are written (quote it when reporting a problem).',
    },
    servers: [{ url: servers.baseUrl }],
    components: {
      securitySchemes: {
        ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A project API key (fd_…).' },
        BearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `OAuth 2.1 access token; may hold only ${OAUTH_GRANTABLE_SCOPES.join(', ')}.`,
        },
        SessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'fd_session',
          description:
            'Dashboard sign-in session (POST /v1/session; `__Host-fd_session` on https origins). Holds ' +
            'analytics:read, resources:write and data:admin on every project of the tenant. Unsafe methods ' +
            'also need the header X-CSRF-Token (from the session response).',
        },
      },
      headers: {
        'X-RateLimit-Limit': {
          description: 'Requests allowed in the sliding window for this quota.',
          schema: { type: 'integer' },
        },
        'X-RateLimit-Remaining': {
          description: 'Requests left in the window (0 on a 429).',
          schema: { type: 'integer' },
        },
        'X-RateLimit-Reset': {
          description: 'Unix time in milliseconds when the oldest counted request leaves the window.',
          schema: { type: 'integer' },
        },
      },
      schemas: { Problem: ProblemSchema },
    },
    paths,
  });
}

function operation(route: RouteDefinition): ZodOpenApiOperationObject {
  const scope = route.auth.scope;
  const credentials = route.auth.credentials ?? 'any';
  const bearerAllowed = credentials === 'any' && (scope === null || OAUTH_GRANTABLE_SCOPES.includes(scope));
  const limited = (route.rateLimit ?? 'plan') !== 'none';
  const limitHeaders = limited ? RATE_LIMIT_HEADERS : {};
  const security: Record<string, string[]>[] =
    credentials === 'session' || credentials === 'none' ? [] : [{ ApiKeyAuth: [] }];
  if (bearerAllowed) security.push({ BearerAuth: scope ? [scope] : [] });
  if (credentials !== 'apiKey' && credentials !== 'none') security.push({ SessionCookie: [] });
  const errors = new Set<number>([500, 503, ...(route.errors ?? [])]);
  if (credentials !== 'none') errors.add(401);
  if (limited) errors.add(429);
  if (scope) errors.add(403);
  if (route.project) errors.add(404);
  if (route.request?.params || route.request?.query || route.request?.body || route.project === 'header')
    errors.add(400);
  if (route.request?.body) [413, 415].forEach((s) => errors.add(s));

  const status = route.response.status ?? 200;
  const responses: Record<string, ZodOpenApiResponseObject> = {
    [status]: {
      description: route.response.description,
      headers: limitHeaders,
      content: route.response.media
        ? Object.fromEntries(Object.entries(route.response.media).map(([type, schema]) => [type, { schema }]))
        : { 'application/json': { schema: z.object({ success: z.literal(true), data: route.response.data }) } },
    },
  };
  for (const s of [...errors].sort()) {
    responses[s] = {
      description: route.errorDescriptions?.[s] ?? ERROR_DESCRIPTIONS[s] ?? 'Error.',
      headers:
        s === 429 || s === 503
          ? { ...limitHeaders, 'Retry-After': retryAfterHeader }
          : s === 401 && credentials !== 'none'
            ? { ...limitHeaders, 'WWW-Authenticate': wwwAuthenticateHeader }
            : limitHeaders,
      content: { 'application/problem+json': { schema: ProblemSchema } },
    };
  }
  const scopeText = scope ? `Requires scope \`${scope}\`.` : credentials === 'none' ? '' : 'Any valid credential.';
  const credentialText =
    credentials === 'none'
      ? 'No credential (this call creates one).'
      : credentials === 'session'
        ? 'Signed-in dashboard session only.'
        : bearerAllowed
          ? 'API key, OAuth bearer token or dashboard session.'
          : credentials === 'apiKey'
            ? 'API key only.'
            : 'API key or dashboard session.';
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: [route.description, describeAliases(route.request?.aliases), `${scopeText} ${credentialText}`.trim()]
      .filter(Boolean)
      .join('\n\n'),
    tags: [route.tag],
    security,
    'x-required-scope': scope ?? (credentials === 'none' ? 'none' : 'any'),
    ...(route.rateLimit === 'whoami' ? { 'x-rate-limit': 'whoami (own per-tenant quota)' } : {}),
    ...(route.request?.aliases ? { 'x-aliases': route.request.aliases } : {}),
    requestParams: {
      ...(route.request?.params ? { path: route.request.params } : {}),
      ...(route.request?.query ? { query: route.request.query } : {}),
      ...(route.project === 'header' ? { header: PROJECT_HEADER } : {}),
    },
    ...(route.request?.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: route.request.body } } } }
      : {}),
    ...(route.request?.multipart
      ? { requestBody: { required: true, content: { 'multipart/form-data': { schema: route.request.multipart } } } }
      : {}),
    responses,
  };
}

const retryAfterHeader = { description: 'Seconds to wait before retrying.', schema: { type: 'integer' as const } };
const wwwAuthenticateHeader = {
  description:
    'Bearer challenge (RFC 6750 §3): `Bearer realm="FrameDeck API", resource_metadata="{app_origin}/.well-known/' +
    'oauth-protected-resource/api"` (RFC 9728 §5.1; with error="invalid_token" when a bearer token was refused).',
  schema: { type: 'string' as const },
};
