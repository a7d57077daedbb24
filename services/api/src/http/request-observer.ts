import { AsyncResource } from 'node:async_hooks';
import type { Request, RequestHandler } from 'express';
import { withRequestId, type ProxyTrust } from '@framedeck/http-edge';
import type { Logger } from '@framedeck/logging';
import type { ApiMetrics } from '@framedeck/metrics';

/**
 * The first middleware: gives the request its X-Request-Id (and its log lines their requestId)
 * and, once the answer is sent, times it under its route template and writes a debug-level
 * access line (FRAMEDECK_LOG_LEVEL=debug shows one line per request).
 */
export function observeRequests(
  trust: ProxyTrust,
  metrics: Pick<ApiMetrics, 'requestSeconds'>,
  logger: Pick<Logger, 'debug'>,
): RequestHandler {
  return (req, res, next) =>
    withRequestId(req, res, trust, () => {
      const endTimer = metrics.requestSeconds.startTimer();
      const template = captureRouteTemplate(req);
      // NOTE: bound to the request's context, so the access line carries its requestId too.
      res.once(
        'close',
        AsyncResource.bind(() => {
          const status = res.headersSent ? String(res.statusCode) : 'aborted';
          const route = template() ?? 'unmatched';
          const seconds = endTimer({ method: req.method, route, status });
          logger.debug({ method: req.method, route, status, ms: Math.round(seconds * 1000) }, 'request answered');
        }),
      );
      next();
    });
}

/**
 * The matched route's template with its mount path (`/api/v1/projects/:id`), or undefined when
 * no Express route matched (404s, the dashboard's files, the OAuth server's own routing).
 * NOTE: read when Express assigns req.route, because req.baseUrl is reset once an error leaves
 * the router, and the answer is sent after that; the raw URL is never a label (ids and random
 * paths would make one series per request).
 */
function captureRouteTemplate(req: Request): () => string | undefined {
  let route: unknown;
  let template: string | undefined;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: { path?: unknown } | undefined) => {
      route = value;
      if (typeof value?.path === 'string') template = `${req.baseUrl}${value.path}`;
    },
  });
  return () => template;
}
