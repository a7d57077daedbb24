import type { ErrorRequestHandler, RequestHandler } from 'express';
import { PlanLimitError } from '@framedeck/accounts';
import type { Logger } from '@framedeck/logging';
import { ApiProblem, PROBLEM_CONTENT_TYPE, problems } from '@framedeck/problem';
import { isInfrastructureOutage } from './infrastructure-errors.js';

/** Unknown paths under /api: a problem like every other error. */
export const notFoundRoute: RequestHandler = (_req, _res, next) => next(problems.notFound('No such endpoint.'));

/**
 * The edge where every error becomes problem+json. Only ApiProblem details (written for
 * clients) are shown; anything else is logged and answered without internal detail (no stack,
 * SQL, host names).
 */
export function problemHandler(
  logger: Logger,
  /**
   * The WWW-Authenticate value of a 401 under /api (RFC 6750 §3: a resource server that accepts
   * bearer tokens challenges with the Bearer scheme); `invalidToken` when a bearer token was
   * sent and refused.
   */
  challenge: (invalidToken: boolean) => string = () => 'Bearer realm="FrameDeck API"',
): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const problem = toProblem(error);
    if (!problem) logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    else if (problem.status === 503) logger.warn({ err: error, path: req.path }, 'backing service unavailable');
    const doc = (problem ?? problems.internal()).toDocument();
    if (res.headersSent) return void res.destroy();
    if (doc.retry_after !== undefined) res.setHeader('Retry-After', String(doc.retry_after));
    if (doc.status === 401 && req.originalUrl.startsWith('/api/')) {
      const bearerSent = req.get('x-api-key') === undefined && /^bearer\s/i.test(req.get('authorization') ?? '');
      res.setHeader('WWW-Authenticate', challenge(bearerSent));
    }
    res.status(doc.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(doc));
  };
}

/** Maps what libraries throw to problems; undefined for unexpected errors (→ 500). */
export function toProblem(error: unknown): ApiProblem | undefined {
  if (error instanceof ApiProblem) return error;
  if (error instanceof PlanLimitError) return new ApiProblem(403, error.message, { category: 'authorization' });
  const bodyError = bodyParserProblem(error);
  if (bodyError) return bodyError;
  if (isInfrastructureOutage(error)) {
    return problems.unavailable('A backing service is temporarily unavailable; retry shortly.');
  }
  return undefined;
}

/** body-parser (express.json) failures, recognised by their documented `type`. */
function bodyParserProblem(error: unknown): ApiProblem | undefined {
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  switch (type) {
    case 'entity.parse.failed':
      return problems.badRequest('The request body is not valid JSON.');
    case 'entity.too.large':
      return problems.tooLarge('The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return problems.unsupportedMediaType('Unsupported content encoding or charset; send UTF-8 JSON.');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return problems.badRequest('The request body could not be read.');
    default:
      return typeof type === 'string' && typeof status === 'number' && status >= 400 && status < 500
        ? new ApiProblem(status, 'The request body could not be read.')
        : undefined;
  }
}
