import { isIP } from 'node:net';
import { z } from 'zod';
import { ConfigError, env, readEnv, type Env } from './env.js';

/**
 * Configuration sections shared by several services. Each reads only its own variables;
 * a service's config.ts picks the sections it needs with `collectSections`.
 * Defaults match the local stack started by infra/local/up.sh.
 */

export function postgresSection(source: Env) {
  const e = readEnv(
    {
      // Tenants, users, projects, keys, maps, alert rules.
      FRAMEDECK_POSTGRES_URL: env.url('postgres://postgres:postgres@127.0.0.1:5432/framedeck'),
      // Connections each process keeps open at most.
      FRAMEDECK_POSTGRES_POOL_MAX: env.positiveInt(10),
    },
    source,
  );
  return { url: e.FRAMEDECK_POSTGRES_URL, poolMax: e.FRAMEDECK_POSTGRES_POOL_MAX };
}
export type PostgresConfig = ReturnType<typeof postgresSection>;

export function redisSection(source: Env) {
  const e = readEnv(
    {
      // Rate-limit windows and short-lived caches.
      FRAMEDECK_REDIS_URL: env.url('redis://127.0.0.1:6379'),
      // Namespace for every key we write, so tests and several stacks can share one server.
      FRAMEDECK_REDIS_PREFIX: env.string('fd:'),
    },
    source,
  );
  return { url: e.FRAMEDECK_REDIS_URL, keyPrefix: e.FRAMEDECK_REDIS_PREFIX };
}
export type RedisConfig = ReturnType<typeof redisSection>;

/**
 * The two ClickHouse engines infra/local/ runs side by side: `legacy` (Debian's 18.16 server,
 * the default) and `modern` (26.x). The engine picks the default URL; code never branches on
 * this variable, it asks the server what it is (libs/clickhouse server-engine.ts), so
 * FRAMEDECK_CLICKHOUSE_URL may point at any supported server.
 */
export const CLICKHOUSE_ENGINES = ['legacy', 'modern'] as const;
/** A remote_servers cluster's name (it is written into ON CLUSTER clauses). */
const clusterName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'must be a plain identifier')
  .optional();
const CLICKHOUSE_DEFAULT_URLS = { legacy: 'http://127.0.0.1:8123', modern: 'http://127.0.0.1:8124' } as const;

export function clickhouseSection(source: Env) {
  const { FRAMEDECK_CLICKHOUSE_ENGINE: engine } = readEnv(
    {
      // Which local engine the default URL points at (infra/local runs both).
      FRAMEDECK_CLICKHOUSE_ENGINE: z.enum(CLICKHOUSE_ENGINES).default('legacy'),
    },
    source,
  );
  const e = readEnv(
    {
      // Any supported server (18.16 or 26.x); FrameDeck asks it its version.
      FRAMEDECK_CLICKHOUSE_URL: env.url(CLICKHOUSE_DEFAULT_URLS[engine]),
      // Where the events table and the sandbox views live.
      FRAMEDECK_CLICKHOUSE_DATABASE: z
        .string()
        .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a plain lower-case identifier')
        .default('framedeck'),
      // Migrations, inserts, mutations (with FRAMEDECK_CLICKHOUSE_PASSWORD).
      FRAMEDECK_CLICKHOUSE_USER: env.string('framedeck_admin'),
      // Password of FRAMEDECK_CLICKHOUSE_USER.
      FRAMEDECK_CLICKHOUSE_PASSWORD: env.string('framedeck-admin-dev'),
      // Raw SQL of POST /v1/query: a read-only user that sees only the per-project views.
      FRAMEDECK_CLICKHOUSE_SANDBOX_USER: env.string('framedeck_sandbox'),
      // Password of FRAMEDECK_CLICKHOUSE_SANDBOX_USER (on modern servers it also keys the per-project users' passwords).
      FRAMEDECK_CLICKHOUSE_SANDBOX_PASSWORD: env.string('framedeck-sandbox-dev'),
      // The cluster (remote_servers name) of a sharded, replicated ClickHouse: migrations run ON CLUSTER and
      // create replicated local tables behind Distributed ones, inserts wait for their shards (docs/deployment.md).
      // Unset: one server.
      FRAMEDECK_CLICKHOUSE_CLUSTER: clusterName,
      // With FRAMEDECK_CLICKHOUSE_CLUSTER: a remote_servers cluster listing every node as a shard of its own
      // (default: the cluster's name + `_replicas`). Erasure reads every replica's progress through it;
      // the cluster itself reaches one replica per shard (docs/deployment.md).
      FRAMEDECK_CLICKHOUSE_REPLICAS_CLUSTER: clusterName,
      // With FRAMEDECK_CLICKHOUSE_CLUSTER: a remote_servers cluster listing one replica of each shard, with
      // internal_replication (default: the cluster's name + `_alter`). ALTERs of the replicated tables (migrations,
      // erasure) run ON CLUSTER through it, so one node per shard takes each and replication brings it to the
      // others: two replicas taking the same ALTER can stop 18.16's DDL worker for good (docs/deployment.md).
      FRAMEDECK_CLICKHOUSE_ALTER_CLUSTER: clusterName,
    },
    source,
  );
  const cluster = e.FRAMEDECK_CLICKHOUSE_CLUSTER;
  return {
    engine,
    url: e.FRAMEDECK_CLICKHOUSE_URL,
    database: e.FRAMEDECK_CLICKHOUSE_DATABASE,
    cluster,
    replicasCluster: cluster && (e.FRAMEDECK_CLICKHOUSE_REPLICAS_CLUSTER ?? `${cluster}_replicas`),
    alterCluster: cluster && (e.FRAMEDECK_CLICKHOUSE_ALTER_CLUSTER ?? `${cluster}_alter`),
    admin: { user: e.FRAMEDECK_CLICKHOUSE_USER, password: e.FRAMEDECK_CLICKHOUSE_PASSWORD },
    sandbox: {
      user: e.FRAMEDECK_CLICKHOUSE_SANDBOX_USER,
      password: e.FRAMEDECK_CLICKHOUSE_SANDBOX_PASSWORD,
    },
  };
}
export type ClickHouseConfig = ReturnType<typeof clickhouseSection>;

export function loggingSection(source: Env) {
  const e = readEnv(
    {
      // pino level of the JSON log lines on stdout.
      FRAMEDECK_LOG_LEVEL: env.logLevel(),
    },
    source,
  );
  return { level: e.FRAMEDECK_LOG_LEVEL };
}
export type LoggingConfig = ReturnType<typeof loggingSection>;

/** Public addresses, printed by the CLI and used in links (alert notifications, OAuth). */
export function addressesSection(source: Env) {
  const e = readEnv(
    {
      // Dashboard, API ({origin}/api) and OAuth pages: used in links and as the OAuth issuer.
      FRAMEDECK_APP_ORIGIN: env.url('http://127.0.0.1:8080'),
      // The ingest gateway as clients reach it (printed by the CLI, in the OpenAPI document).
      FRAMEDECK_INGEST_URL: env.url('http://127.0.0.1:8081'),
    },
    source,
  );
  const appOrigin = e.FRAMEDECK_APP_ORIGIN.replace(/\/+$/, '');
  return {
    appOrigin,
    baseUrl: `${appOrigin}/api`,
    ingestUrl: e.FRAMEDECK_INGEST_URL.replace(/\/+$/, ''),
  };
}
export type AddressesConfig = ReturnType<typeof addressesSection>;

/** Where a service listens. Each service names its own port variable. */
export function listenSection(source: Env, portVariable: string, defaultPort: number) {
  const e = readEnv(
    {
      // Address every HTTP listener binds to (0.0.0.0 to accept other hosts).
      FRAMEDECK_BIND_HOST: env.host('127.0.0.1'),
      // A client gets this long to send its request headers, and this long for the whole
      // request: slow-drip clients (slowloris) cannot hold connections open for minutes.
      FRAMEDECK_HTTP_HEADERS_TIMEOUT_MS: env.positiveInt(10_000),
      // The whole request, body included (see the headers timeout above).
      FRAMEDECK_HTTP_REQUEST_TIMEOUT_MS: env.positiveInt(60_000),
    },
    source,
  );
  const port = readEnv(
    { [portVariable]: env.port(defaultPort).meta({ description: 'The port this service listens on.' }) },
    source,
  )[portVariable] as number;
  return {
    host: e.FRAMEDECK_BIND_HOST,
    port,
    headersTimeoutMs: e.FRAMEDECK_HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.FRAMEDECK_HTTP_REQUEST_TIMEOUT_MS,
  };
}
export type ListenConfig = ReturnType<typeof listenSection>;

/**
 * Where alert notifications may be sent (API checks channels at creation, the evaluator at
 * every delivery). Off in production: https only, public addresses only. On (=1) allows http
 * and loopback/private addresses, for local development and tests.
 */
export function notificationsSection(source: Env) {
  const e = readEnv(
    {
      // 1 allows http and loopback/private notification targets (local development and tests only).
      FRAMEDECK_NOTIFICATIONS_ALLOW_LOCAL_TARGETS: env.bool(false),
    },
    source,
  );
  return { allowLocalTargets: e.FRAMEDECK_NOTIFICATIONS_ALLOW_LOCAL_TARGETS };
}
export type NotificationsConfig = ReturnType<typeof notificationsSection>;

/**
 * Who may tell us the client's address (X-Forwarded-For) and the request id (X-Request-Id):
 * the load balancers or ingress proxies in front of the API and the gateway. Per-IP limits
 * (sign-in, anonymous requests, OAuth registration, the gateway's invalid-key limiter) count
 * the address these proxies report; from any other peer the headers are ignored. Default:
 * nobody (the TCP peer is the client), which is right when clients connect directly.
 * Entries: IPs, CIDRs (10.0.0.0/8, fd00::/8) or the names loopback, linklocal, uniquelocal.
 */
export function trustedProxiesSection(source: Env) {
  const e = readEnv(
    {
      // Comma-separated IPs, CIDRs or loopback/linklocal/uniquelocal; empty: the TCP peer is the client.
      FRAMEDECK_TRUSTED_PROXIES: z
        .string()
        .transform((v) =>
          v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        )
        .pipe(
          z.array(
            z.string().refine(isAddressOrRange, 'each entry must be an IP, a CIDR or loopback/linklocal/uniquelocal'),
          ),
        )
        .default([]),
    },
    source,
  );
  return { trustedProxies: e.FRAMEDECK_TRUSTED_PROXIES };
}
export type TrustedProxiesConfig = ReturnType<typeof trustedProxiesSection>;

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The Prometheus endpoint of a service: GET /metrics on a listener of its own, never on the
 * public API or ingest port. Loopback by default (a scraper on the same host, or a sidecar);
 * bound to another address it must require a bearer token, so a metrics port opened by
 * mistake does not hand tenants' traffic figures to the internet. Each service names its port.
 */
export function metricsSection(source: Env, portVariable: string, defaultPort: number) {
  const e = readEnv(
    {
      // Address of the metrics listener; off loopback it needs FRAMEDECK_METRICS_TOKEN.
      FRAMEDECK_METRICS_HOST: env.host('127.0.0.1'),
      // Prometheus sends it as `Authorization: Bearer <token>` (scrape config: authorization.credentials).
      FRAMEDECK_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    },
    source,
  );
  const port = readEnv(
    { [portVariable]: env.port(defaultPort).meta({ description: 'The port of GET /metrics (Prometheus).' }) },
    source,
  )[portVariable] as number;
  if (!LOOPBACK_HOSTS.has(e.FRAMEDECK_METRICS_HOST) && e.FRAMEDECK_METRICS_TOKEN === undefined) {
    throw new ConfigError([
      `FRAMEDECK_METRICS_HOST=${JSON.stringify(e.FRAMEDECK_METRICS_HOST)}: a metrics listener off loopback needs FRAMEDECK_METRICS_TOKEN`,
    ]);
  }
  return { host: e.FRAMEDECK_METRICS_HOST, port, token: e.FRAMEDECK_METRICS_TOKEN };
}
export type MetricsConfig = ReturnType<typeof metricsSection>;
