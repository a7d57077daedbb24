import express, { type ErrorRequestHandler, type Express } from 'express';
import { serveHealth, type HealthChecks } from '@framedeck/lifecycle';
import type { Logger } from '@framedeck/logging';
import { ApiProblem, PROBLEM_CONTENT_TYPE, problems } from '@framedeck/problem';

export type ApiDeps = {
  logger: Logger;
  checks: HealthChecks;
  isShuttingDown: () => boolean;
};

/** The API service's HTTP app: health at the origin's root, the REST API under /api. */
export function buildApp(deps: ApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use((req, res, next) => {
    if (!serveHealth(req, res, deps.checks, deps.isShuttingDown)) next();
  });

  const api = express.Router();
  api.use((_req, _res, next) => next(problems.notFound('No such endpoint.')));
  app.use('/api', api);

  app.use(problemHandler(deps.logger));
  return app;
}

/** The edge where every error becomes problem+json; unknown errors reveal nothing. */
function problemHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const problem = error instanceof ApiProblem ? error : undefined;
    if (!problem) logger.error({ err: error, path: req.path }, 'unhandled error');
    const doc = (problem ?? problems.internal()).toDocument();
    if (doc.retry_after !== undefined) res.setHeader('Retry-After', String(doc.retry_after));
    res.status(doc.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(doc));
  };
}
