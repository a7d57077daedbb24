import express, { type Express, type RequestHandler } from 'express';
import type { ClickHouseReader, ClickHouseWriter } from '@framedeck/clickhouse';
import { compileProxyTrust } from '@framedeck/http-edge';
import { serveHealth, type HealthChecks } from '@framedeck/lifecycle';
import type { Logger } from '@framedeck/logging';
import { apiMetrics, Registry, type ApiMetrics } from '@framedeck/metrics';
import type { Pool } from '@framedeck/postgres';
import type { Clock } from '@framedeck/rate-limit';
import type { Redis } from '@framedeck/redis';
import { RedisAdmission, RedisHourlyQuota, SqlSandbox } from '@framedeck/sql-sandbox';
import type { ApiConfig } from './config.js';
import { ApiKeyAuthenticator } from './http/api-key.authenticator.js';
import { apiDocsRouter } from './http/api-docs.router.js';
import { dashboardAssets } from './http/dashboard-assets.js';
import type { ApiServices } from './http/api-services.js';
import { identify } from './http/auth.middleware.js';
import { failOpenCounter } from './http/fail-open-counter.js';
import { ingestOpenApiPaths } from './http/ingest.openapi.js';
import { buildOpenApiDocument } from './http/openapi.js';
import type { BearerTokenVerifier } from './http/principal.js';
import { notFoundRoute, problemHandler } from './http/problem.middleware.js';
import { TenantRateLimiter } from './http/rate-limit.middleware.js';
import { observeRequests } from './http/request-observer.js';
import type { RouteDefinition } from './http/route.js';
import { mountRoutes } from './http/route-registry.js';
import type { Identity } from './identity.js';
import { API_ROUTES } from './routes/index.js';

export type ApiDeps = {
  config: ApiConfig;
  logger: Logger;
  pool: Pool;
  redis: Redis;
  /** Reads for every analytics route; the writer for erasure mutations and the sandbox's per-project views. */
  clickhouse: { reader: ClickHouseReader; writer: ClickHouseWriter };
  isShuttingDown?: () => boolean;
  /** The OAuth seam: without it, every bearer token is refused with 401. */
  bearerVerifier?: BearerTokenVerifier;
  /**
   * Dashboard sessions and the OAuth server (createIdentity, src/identity.ts): its pages and
   * endpoints, its bearer verifier (unless `bearerVerifier` is given) and the session cookie as
   * a credential. Without it: API keys only.
   */
  identity?: Identity;
  /** Tests: a controllable clock for the rate-limit windows. */
  now?: Clock;
  /** Tests: a private Redis namespace for rate-limit windows. Default "rl:". */
  rateLimitKeyPrefix?: string;
  /** Tests: a private Redis namespace for the SQL sandbox's query slots. Default "sqlslots:". */
  sqlAdmissionKeyPrefix?: string;
  /** The built dashboard (index.html + assets/). Default: services/dashboard/dist. */
  dashboardDir?: string;
  /** Default: every route of src/routes/index.ts. */
  routes?: readonly RouteDefinition[];
  /** Declared on the registry main.ts serves at /metrics; default: a private registry nobody reads. */
  metrics?: ApiMetrics;
};

export type ApiApp = {
  app: Express;
  /** The OpenAPI document served at {base_url}/openapi.json. */
  openApiDocument: ReturnType<typeof buildOpenApiDocument>;
  /** Flushes pending key last-use times (the clients stay open: main owns them; background work is in workers.ts). */
  close: () => Promise<void>;
};

/** The API service's HTTP app: health at the origin's root, the REST API under /api. */
export function buildApp(deps: ApiDeps): ApiApp {
  const { config, logger } = deps;
  const identity = deps.identity;
  const routes = [...(deps.routes ?? API_ROUTES), ...(identity?.routes ?? [])];
  const metrics = deps.metrics ?? apiMetrics(new Registry());
  const proxyTrust = compileProxyTrust(config.proxies.trustedProxies);
  const apiKeys = new ApiKeyAuthenticator(
    { pool: deps.pool, logger },
    { cacheMs: config.api.keyCacheMs, flushMs: config.api.keyLastUsedFlushMs },
  );
  const services: ApiServices = {
    pool: deps.pool,
    clickhouse: deps.clickhouse.reader,
    clickhouseWriter: deps.clickhouse.writer,
    redis: deps.redis,
    logger,
    config,
    apiKeys,
    sqlSandbox: loadOnce(() =>
      SqlSandbox.create({
        clickhouse: config.clickhouse,
        admin: deps.clickhouse.writer,
        // Concurrent queries counted in Redis, shared by every API instance: fair between tenants.
        admission: new RedisAdmission({
          redis: deps.redis,
          keyPrefix: deps.sqlAdmissionKeyPrefix,
          onFallback: (error) => logger.warn({ err: error }, 'sql admission: Redis failed, counting in this process'),
        }),
        // Each project's hourly budget counted in Redis too: on a cluster ClickHouse counts it per node.
        hourlyQuota: new RedisHourlyQuota({
          redis: deps.redis,
          keyPrefix: deps.sqlAdmissionKeyPrefix === undefined ? undefined : `${deps.sqlAdmissionKeyPrefix}quota:`,
          onFallback: (error) => logger.warn({ err: error }, 'sql hourly quota: Redis failed, ClickHouse quota only'),
        }),
        onWarning: (message, error) => logger.warn({ err: error }, message),
      }),
    ),
    metrics,
  };
  const now = deps.now ?? Date.now;
  const rateLimiter = new TenantRateLimiter({
    counter: failOpenCounter({
      redis: deps.redis,
      logger,
      windowMs: config.api.rateLimit.windowMs,
      now,
      keyPrefix: deps.rateLimitKeyPrefix,
      what: 'rate limiter',
    }),
    pool: deps.pool,
    logger,
    windowMs: config.api.rateLimit.windowMs,
    whoamiPerWindow: config.api.rateLimit.whoamiPerWindow,
    anonymousPerWindow: config.api.rateLimit.anonymousPerWindow,
    now,
  });
  const identifyAs = (accepts: 'any' | 'apiKey' | 'session') =>
    identify(apiKeys, deps.bearerVerifier ?? identity?.bearerVerifier, accepts, identity?.sessionAuthenticator);
  const guard: RequestHandler[] = [identifyAs('any'), rateLimiter.middleware('plan')];
  const openApiDocument = buildOpenApiDocument(
    routes,
    { baseUrl: config.addresses.baseUrl },
    { ...ingestOpenApiPaths(config.addresses.ingestUrl), ...identity?.openApiPaths },
  );

  const app = express();
  app.disable('x-powered-by');
  // req.ip (per-IP limits: sign-in, anonymous requests, OAuth registration) is read from
  // X-Forwarded-For only when the peer is one of FRAMEDECK_TRUSTED_PROXIES; default nobody.
  app.set('trust proxy', proxyTrust);
  app.use(observeRequests(proxyTrust, metrics, logger));
  const https = config.addresses.appOrigin.startsWith('https:');
  app.use((_req, res, next) => {
    // No response of ours may be sniffed into another type (e.g. JSON rendered as HTML).
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (https) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  });
  app.use((req, res, next) => {
    if (!serveHealth(req, res, healthChecks(deps), deps.isShuttingDown)) next();
  });

  // OAuth endpoints and pages (some under /api/oauth) come first.
  if (identity) app.use(identity.router);
  const api = express.Router();
  api.use(apiDocsRouter(openApiDocument, guard));
  api.use(mountRoutes(routes, { services, identify: identifyAs, rateLimit: (b) => rateLimiter.middleware(b) }));
  api.use(...guard, notFoundRoute);
  app.use('/api', api);
  app.use(dashboardAssets({ dir: deps.dashboardDir, logger }));
  app.use(notFoundRoute);

  // With the OAuth server, a 401 points to the protected resource metadata it serves.
  app.use(problemHandler(logger, identity?.bearerChallenge));
  return {
    app,
    openApiDocument,
    close: async () => {
      await Promise.all([apiKeys.close(), identity?.close()]);
    },
  };
}

function healthChecks(deps: ApiDeps): HealthChecks {
  return {
    postgres: () => deps.pool.query('SELECT 1'),
    redis: () => deps.redis.ping(),
    clickhouse: async () => {
      if (!(await deps.clickhouse.reader.ping())) throw new Error('ping failed');
    },
  };
}

/** Memoises an async load; a failed load is forgotten so the next call tries again. */
function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
