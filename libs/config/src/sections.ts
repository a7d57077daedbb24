import { z } from 'zod';
import { env, readEnv, type Env } from './env.js';

/**
 * Configuration sections shared by several services. Each reads only its own variables;
 * a service's config.ts picks the sections it needs with `collectSections`.
 * Defaults match the local stack started by infra/local/up.sh.
 */

export function postgresSection(source: Env) {
  const e = readEnv(
    {
      FRAMEDECK_POSTGRES_URL: env.url('postgres://postgres:postgres@127.0.0.1:5432/framedeck'),
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
      FRAMEDECK_REDIS_URL: env.url('redis://127.0.0.1:6379'),
      // Namespace for every key we write, so tests and several stacks can share one server.
      FRAMEDECK_REDIS_PREFIX: env.string('fd:'),
    },
    source,
  );
  return { url: e.FRAMEDECK_REDIS_URL, keyPrefix: e.FRAMEDECK_REDIS_PREFIX };
}
export type RedisConfig = ReturnType<typeof redisSection>;

export function kafkaSection(source: Env) {
  const e = readEnv(
    {
      FRAMEDECK_KAFKA_BROKERS: env.list(['127.0.0.1:9092']),
      FRAMEDECK_KAFKA_CLIENT_ID: env.string('framedeck'),
      FRAMEDECK_KAFKA_EVENTS_TOPIC: env.string('framedeck.telemetry-batches.v1'),
      FRAMEDECK_KAFKA_EVENTS_PARTITIONS: env.positiveInt(4),
      FRAMEDECK_KAFKA_DEAD_LETTER_TOPIC: env.string('framedeck.telemetry-batches.dead-letter.v1'),
      FRAMEDECK_KAFKA_CONSUMER_GROUP: env.string('framedeck-events-consumer'),
    },
    source,
  );
  return {
    brokers: e.FRAMEDECK_KAFKA_BROKERS,
    clientId: e.FRAMEDECK_KAFKA_CLIENT_ID,
    eventsTopic: e.FRAMEDECK_KAFKA_EVENTS_TOPIC,
    eventsPartitions: e.FRAMEDECK_KAFKA_EVENTS_PARTITIONS,
    deadLetterTopic: e.FRAMEDECK_KAFKA_DEAD_LETTER_TOPIC,
    consumerGroup: e.FRAMEDECK_KAFKA_CONSUMER_GROUP,
  };
}
export type KafkaConfig = ReturnType<typeof kafkaSection>;

/**
 * The two ClickHouse engines infra/local/ runs side by side: `legacy` (Debian's 18.16 server,
 * the default) and `modern` (26.x). The engine picks the default URL; code never branches on
 * this variable, it asks the server what it is (libs/clickhouse server-engine.ts), so
 * FRAMEDECK_CLICKHOUSE_URL may point at any supported server.
 */
export const CLICKHOUSE_ENGINES = ['legacy', 'modern'] as const;
const CLICKHOUSE_DEFAULT_URLS = { legacy: 'http://127.0.0.1:8123', modern: 'http://127.0.0.1:8124' } as const;

export function clickhouseSection(source: Env) {
  const { FRAMEDECK_CLICKHOUSE_ENGINE: engine } = readEnv(
    { FRAMEDECK_CLICKHOUSE_ENGINE: z.enum(CLICKHOUSE_ENGINES).default('legacy') },
    source,
  );
  const e = readEnv(
    {
      FRAMEDECK_CLICKHOUSE_URL: env.url(CLICKHOUSE_DEFAULT_URLS[engine]),
      FRAMEDECK_CLICKHOUSE_DATABASE: z
        .string()
        .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a plain lower-case identifier')
        .default('framedeck'),
      FRAMEDECK_CLICKHOUSE_USER: env.string('framedeck_admin'),
      FRAMEDECK_CLICKHOUSE_PASSWORD: env.string('framedeck-admin-dev'),
      FRAMEDECK_CLICKHOUSE_SANDBOX_USER: env.string('framedeck_sandbox'),
      FRAMEDECK_CLICKHOUSE_SANDBOX_PASSWORD: env.string('framedeck-sandbox-dev'),
    },
    source,
  );
  return {
    engine,
    url: e.FRAMEDECK_CLICKHOUSE_URL,
    database: e.FRAMEDECK_CLICKHOUSE_DATABASE,
    admin: { user: e.FRAMEDECK_CLICKHOUSE_USER, password: e.FRAMEDECK_CLICKHOUSE_PASSWORD },
    sandbox: {
      user: e.FRAMEDECK_CLICKHOUSE_SANDBOX_USER,
      password: e.FRAMEDECK_CLICKHOUSE_SANDBOX_PASSWORD,
    },
  };
}
export type ClickHouseConfig = ReturnType<typeof clickhouseSection>;

export function loggingSection(source: Env) {
  const e = readEnv({ FRAMEDECK_LOG_LEVEL: env.logLevel() }, source);
  return { level: e.FRAMEDECK_LOG_LEVEL };
}
export type LoggingConfig = ReturnType<typeof loggingSection>;

/** Public addresses, printed by the CLI and used in links (alert notifications, OAuth). */
export function addressesSection(source: Env) {
  const e = readEnv(
    {
      FRAMEDECK_APP_ORIGIN: env.url('http://127.0.0.1:8080'),
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
      FRAMEDECK_BIND_HOST: env.host('127.0.0.1'),
      // A client gets this long to send its request headers, and this long for the whole
      // request: slow-drip clients (slowloris) cannot hold connections open for minutes.
      FRAMEDECK_HTTP_HEADERS_TIMEOUT_MS: env.positiveInt(10_000),
      FRAMEDECK_HTTP_REQUEST_TIMEOUT_MS: env.positiveInt(60_000),
    },
    source,
  );
  const port = readEnv({ [portVariable]: env.port(defaultPort) }, source)[portVariable] as number;
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
  const e = readEnv({ FRAMEDECK_NOTIFICATIONS_ALLOW_LOCAL_TARGETS: env.bool(false) }, source);
  return { allowLocalTargets: e.FRAMEDECK_NOTIFICATIONS_ALLOW_LOCAL_TARGETS };
}
export type NotificationsConfig = ReturnType<typeof notificationsSection>;
