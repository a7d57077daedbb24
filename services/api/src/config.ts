import { z } from 'zod';
import {
  addressesSection,
  clickhouseSection,
  collectSections,
  env,
  listenSection,
  loggingSection,
  metricsSection,
  notificationsSection,
  postgresSection,
  readEnv,
  redisSection,
  trustedProxiesSection,
  type Env,
} from '@framedeck/config';
import { ERASURE_LIMITS } from '@framedeck/analytics';
import { DEFAULT_CLI_CLIENT_ID } from './oauth/cli-client.js';

/** Knobs of the web API itself (authentication caches, rate limits, request bodies). */
export function apiSection(source: Env) {
  const e = readEnv(
    {
      // The plan quota's window. One hour in production; shorter only for tests and drills.
      FRAMEDECK_API_RATE_LIMIT_WINDOW_MS: env.positiveInt(3_600_000),
      // GET /v1/whoami has a quota of its own, per tenant.
      FRAMEDECK_API_WHOAMI_REQUESTS_PER_HOUR: env.positiveInt(60),
      // Requests that carry no valid credential are counted per client IP.
      FRAMEDECK_API_ANONYMOUS_REQUESTS_PER_HOUR: env.positiveInt(1_000),
      // How long a key lookup (found or not) is reused before asking Postgres again.
      FRAMEDECK_API_KEY_CACHE_MS: env.nonNegativeInt(10_000),
      // Keys' last_used_at are written in batches this often, not on every request.
      FRAMEDECK_API_KEY_LAST_USED_FLUSH_MS: env.positiveInt(60_000),
      // Larger JSON bodies get 413.
      FRAMEDECK_API_JSON_BODY_LIMIT_BYTES: env.positiveInt(1_048_576),
      // Running player-erasure jobs are advanced this often even when nobody polls them.
      FRAMEDECK_API_ERASURE_SWEEP_MS: env.positiveInt(5_000),
      // client_id of the pre-registered public OAuth client for the command line (the Framedash CLI's).
      FRAMEDECK_OAUTH_CLI_CLIENT_ID: env.string(DEFAULT_CLI_CLIENT_ID),
    },
    source,
  );
  return {
    rateLimit: {
      windowMs: e.FRAMEDECK_API_RATE_LIMIT_WINDOW_MS,
      whoamiPerWindow: e.FRAMEDECK_API_WHOAMI_REQUESTS_PER_HOUR,
      anonymousPerWindow: e.FRAMEDECK_API_ANONYMOUS_REQUESTS_PER_HOUR,
    },
    keyCacheMs: e.FRAMEDECK_API_KEY_CACHE_MS,
    keyLastUsedFlushMs: e.FRAMEDECK_API_KEY_LAST_USED_FLUSH_MS,
    jsonBodyLimitBytes: e.FRAMEDECK_API_JSON_BODY_LIMIT_BYTES,
    erasureSweepMs: e.FRAMEDECK_API_ERASURE_SWEEP_MS,
    oauthCliClientId: e.FRAMEDECK_OAUTH_CLI_CLIENT_ID,
  };
}
export type ApiSettings = ReturnType<typeof apiSection>;

/**
 * Data retention and erasure (docs/operations.md, Retention and Erasure): how often the
 * retention worker runs, what one tenant may have erasing at once, and whether raw SQL sees
 * only the retained window.
 */
export function dataLifecycleSection(source: Env) {
  const e = readEnv(
    {
      // How often the retention worker drops the partitions past their retention (a week expires at once).
      FRAMEDECK_API_RETENTION_INTERVAL_MS: env.positiveInt(60_000),
      // Whether this API process runs the retention worker. Off only for test stacks: their
      // fixtures are dated months ago, and a worker in any test's API would drop them as expired
      // under every other test reading the same database.
      FRAMEDECK_API_RETENTION_WORKER: env.bool(true),
      // Erasure jobs one tenant may have running at once; one more is refused with 429 and Retry-After.
      FRAMEDECK_API_ERASURE_MAX_JOBS_PER_TENANT: env.positiveInt(ERASURE_LIMITS.perTenant.maxRunningJobs),
      // Players in one tenant's running erasure jobs at once (at least the 500 one request may name).
      FRAMEDECK_API_ERASURE_MAX_PLAYERS_PER_TENANT: z.coerce
        .number()
        .int()
        .min(ERASURE_LIMITS.maxPlayers)
        .default(ERASURE_LIMITS.perTenant.maxRunningPlayers),
      // Raw SQL (POST /v1/query) reads only the project's retained window of events. Off only for
      // test stacks whose fixtures are dated before the window.
      FRAMEDECK_API_SQL_RETAINED_WINDOW_ONLY: env.bool(true),
    },
    source,
  );
  return {
    retentionIntervalMs: e.FRAMEDECK_API_RETENTION_INTERVAL_MS,
    retentionWorker: e.FRAMEDECK_API_RETENTION_WORKER,
    erasureCapPerTenant: {
      maxRunningJobs: e.FRAMEDECK_API_ERASURE_MAX_JOBS_PER_TENANT,
      maxRunningPlayers: e.FRAMEDECK_API_ERASURE_MAX_PLAYERS_PER_TENANT,
    },
    sqlRetainedWindowOnly: e.FRAMEDECK_API_SQL_RETAINED_WINDOW_ONLY,
  };
}
export type DataLifecycleSettings = ReturnType<typeof dataLifecycleSection>;

export function loadApiConfig(source: Env = process.env) {
  return collectSections({
    listen: () => listenSection(source, 'FRAMEDECK_API_PORT', 8080),
    addresses: () => addressesSection(source),
    postgres: () => postgresSection(source),
    redis: () => redisSection(source),
    clickhouse: () => clickhouseSection(source),
    logging: () => loggingSection(source),
    api: () => apiSection(source),
    dataLifecycle: () => dataLifecycleSection(source),
    notifications: () => notificationsSection(source),
    metrics: () => metricsSection(source, 'FRAMEDECK_API_METRICS_PORT', 9480),
    proxies: () => trustedProxiesSection(source),
  });
}
export type ApiConfig = ReturnType<typeof loadApiConfig>;
