import express, { type Express, type RequestHandler } from 'express';
import type { ClickHouseClient } from '@framedeck/clickhouse';
import { serveHealth, type HealthChecks } from '@framedeck/lifecycle';
import type { Logger } from '@framedeck/logging';
import type { Pool } from '@framedeck/postgres';
import {
  FailOpenSlidingWindow,
  MemorySlidingWindow,
  RedisSlidingWindow,
  type Clock,
  type SlidingWindowCounter,
} from '@framedeck/rate-limit';
import type { Redis } from '@framedeck/redis';
import type { ApiConfig } from './config.js';
import { ApiKeyAuthenticator } from './http/api-key.authenticator.js';
import { apiDocsRouter } from './http/api-docs.router.js';
import { dashboardAssets } from './http/dashboard-assets.js';
import type { ApiServices } from './http/api-services.js';
import { identify } from './http/auth.middleware.js';
import { buildOpenApiDocument } from './http/openapi.js';
import type { BearerTokenVerifier } from './http/principal.js';
import { notFoundRoute, problemHandler } from './http/problem.middleware.js';
import { TenantRateLimiter } from './http/rate-limit.middleware.js';
import type { RouteDefinition } from './http/route.js';
import { mountRoutes } from './http/route-registry.js';
import { API_ROUTES } from './routes/index.js';

export type ApiDeps = {
  config: ApiConfig;
  logger: Logger;
  pool: Pool;
  redis: Redis;
  clickhouse: ClickHouseClient;
  isShuttingDown?: () => boolean;
  /** The OAuth seam: without it, every bearer token is refused with 401. */
  bearerVerifier?: BearerTokenVerifier;
  /** Tests: a controllable clock for the rate-limit windows. */
  now?: Clock;
  /** Tests: a private Redis namespace for rate-limit windows. Default "rl:". */
  rateLimitKeyPrefix?: string;
  /** The built dashboard (index.html + assets/). Default: services/dashboard/dist. */
  dashboardDir?: string;
  /** Default: every route of src/routes/index.ts. */
  routes?: readonly RouteDefinition[];
};

export type ApiApp = {
  app: Express;
  /** The OpenAPI document served at {base_url}/openapi.json. */
  openApiDocument: ReturnType<typeof buildOpenApiDocument>;
  /** Flushes pending key last-use times and stops timers (the clients stay open: main owns them). */
  close: () => Promise<void>;
};

/** The API service's HTTP app: health at the origin's root, the REST API under /api. */
export function buildApp(deps: ApiDeps): ApiApp {
  const { config, logger } = deps;
  const routes = deps.routes ?? API_ROUTES;
  const apiKeys = new ApiKeyAuthenticator(
    { pool: deps.pool, logger },
    { cacheMs: config.api.keyCacheMs, flushMs: config.api.keyLastUsedFlushMs },
  );
  const services: ApiServices = {
    pool: deps.pool,
    clickhouse: deps.clickhouse,
    redis: deps.redis,
    logger,
    config,
    apiKeys,
  };
  const now = deps.now ?? Date.now;
  const rateLimiter = new TenantRateLimiter({
    counter: rateLimitCounter(deps, now),
    pool: deps.pool,
    logger,
    windowMs: config.api.rateLimit.windowMs,
    whoamiPerWindow: config.api.rateLimit.whoamiPerWindow,
    anonymousPerWindow: config.api.rateLimit.anonymousPerWindow,
    now,
  });
  const identifyAs = (accepts: 'any' | 'apiKey') => identify(apiKeys, deps.bearerVerifier, accepts);
  const guard: RequestHandler[] = [identifyAs('any'), rateLimiter.middleware('plan')];
  const openApiDocument = buildOpenApiDocument(routes, { baseUrl: config.addresses.baseUrl });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use((req, res, next) => {
    if (!serveHealth(req, res, healthChecks(deps), deps.isShuttingDown)) next();
  });

  const api = express.Router();
  api.use(apiDocsRouter(openApiDocument, guard));
  api.use(mountRoutes(routes, { services, identify: identifyAs, rateLimit: (b) => rateLimiter.middleware(b) }));
  api.use(...guard, notFoundRoute);
  app.use('/api', api);
  app.use(dashboardAssets({ dir: deps.dashboardDir, logger }));
  app.use(notFoundRoute);

  app.use(problemHandler(logger));
  return { app, openApiDocument, close: () => apiKeys.close() };
}

function healthChecks(deps: ApiDeps): HealthChecks {
  return {
    postgres: () => deps.pool.query('SELECT 1'),
    redis: () => deps.redis.ping(),
    clickhouse: async () => {
      if (!(await deps.clickhouse.ping()).success) throw new Error('ping failed');
    },
  };
}

/**
 * DECISION: Redis down → fail open to a per-instance in-memory window with the same limits
 * (logged at most every 30 s). The API stays up; each instance still stops a runaway client.
 */
function rateLimitCounter(deps: ApiDeps, now: Clock): SlidingWindowCounter {
  const windowMs = deps.config.api.rateLimit.windowMs;
  let lastWarning = 0;
  return new FailOpenSlidingWindow(
    new RedisSlidingWindow(deps.redis, { windowMs, now, keyPrefix: deps.rateLimitKeyPrefix ?? 'rl:' }),
    new MemorySlidingWindow({ windowMs, now }),
    (error) => {
      if (Date.now() - lastWarning < 30_000) return;
      lastWarning = Date.now();
      deps.logger.warn({ err: error }, 'rate limiter: Redis unavailable, counting in this process only');
    },
  );
}
