import { Router, type RequestHandler } from 'express';
import { problems } from '@framedeck/problem';
import type { ApiServices } from './api-services.js';
import { requireAuthentication } from './auth.middleware.js';
import { assertProjectAccess, projectIdFromHeader, requireScope } from './authorization.js';
import { applyAliases } from './field-aliases.js';
import type { RouteContext, RouteDefinition } from './route.js';
import { jsonBody, parseOr400 } from './validate.js';

export type RegistryDeps = {
  services: ApiServices;
  /** `identify` for the credential kinds a route accepts. */
  identify: (accepts: 'any' | 'apiKey' | 'session') => RequestHandler;
  rateLimit: (bucket: 'plan' | 'whoami') => RequestHandler;
};

/**
 * Mounts route definitions. Every route gets the same chain, in this order:
 *   identify → rate limit (headers on every answer) → 401 → 403 scope → JSON body (415/400/413)
 *   → validation (400) → project access (404) → handler → { success: true, data }.
 * (A route with credentials 'none' skips identify and the 401; rateLimit 'none' skips the limit.)
 */
export function mountRoutes(routes: readonly RouteDefinition[], deps: RegistryDeps): Router {
  const router = Router();
  for (const route of [...routes].sort(bySpecificity)) {
    const credentials = route.auth.credentials ?? 'any';
    const rateLimit = route.rateLimit ?? 'plan';
    const chain: RequestHandler[] = [];
    if (credentials !== 'none') chain.push(deps.identify(credentials));
    if (rateLimit !== 'none') chain.push(deps.rateLimit(rateLimit));
    if (credentials !== 'none') chain.push(requireAuthentication);
    if (route.auth.scope) chain.push(requireScope(route.auth.scope));
    if (route.request?.body) {
      chain.push(jsonBody(route.request.bodyLimitBytes ?? deps.services.config.api.jsonBodyLimitBytes));
    }
    chain.push(handle(route, deps.services));
    router[route.method](expressPath(route.path), ...chain);
  }
  return router;
}

function handle(route: RouteDefinition, services: ApiServices): RequestHandler {
  return async (req, res) => {
    const principal = req.principal;
    const params = route.request?.params ? parseOr400(route.request.params, req.params, 'path') : {};
    const aliases = route.request?.aliases;
    const query = route.request?.query
      ? parseOr400(route.request.query, applyAliases(req.query, aliases?.query, 'query'), 'query')
      : {};
    const body = route.request?.body
      ? parseOr400(route.request.body, applyAliases(req.body, aliases?.body, 'body'), 'body')
      : undefined;
    let projectId: string | undefined;
    const credential = () => {
      if (!principal) throw new Error(`${route.operationId} reads no credential`);
      return principal;
    };
    if (route.project === 'path') projectId = assertProjectAccess(credential(), String(params.id));
    if (route.project === 'header')
      projectId = assertProjectAccess(credential(), projectIdFromHeader(req.get('x-project-id')));
    const ctx: RouteContext<typeof params, typeof query, typeof body> = {
      req,
      res,
      get principal() {
        return credential();
      },
      params,
      query,
      body,
      get projectId() {
        if (projectId === undefined) throw new Error(`${route.operationId} does not declare a project`);
        return projectId;
      },
      requireProject: (id) => assertProjectAccess(credential(), id),
      services,
    };
    const data = await route.handler(ctx);
    if (res.headersSent) return;
    if (data === undefined) throw problems.internal();
    res.status(route.response.status ?? 200).json({ success: true, data });
  };
}

/** `/v1/projects/{id}` → `/v1/projects/:id` */
export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

/**
 * Literal segments before parameters, so `/alerts/history` is matched before `/alerts/{alertId}`
 * whatever order the route files list them in.
 */
function bySpecificity(a: RouteDefinition, b: RouteDefinition): number {
  const sa = a.path.split('/');
  const sb = b.path.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i]!.startsWith('{');
    const pb = sb[i]!.startsWith('{');
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}
