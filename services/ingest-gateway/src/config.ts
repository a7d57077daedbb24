import {
  collectSections,
  env,
  kafkaSection,
  listenSection,
  loggingSection,
  metricsSection,
  postgresSection,
  readEnv,
  redisSection,
  trustedProxiesSection,
  type Env,
} from '@framedeck/config';

/** Tunables of POST /v1/events. The 126,000-byte body limit is the spec's, not configurable. */
export function ingestSection(source: Env) {
  const e = readEnv(
    {
      // Cap on a gzip body's inflated size: a gzip bomb stops here (413), never in memory.
      FRAMEDECK_INGEST_MAX_INFLATED_BYTES: env.positiveInt(4 * 1024 * 1024),
      // A body that stops arriving before Content-Length bytes is answered 400 after this.
      FRAMEDECK_INGEST_BODY_TIMEOUT_MS: env.positiveInt(10_000),
      // How long a key lookup is trusted: a deactivated key stops working within this time.
      FRAMEDECK_INGEST_KEY_CACHE_TTL_MS: env.positiveInt(5_000),
      // How long an unknown key stays unknown (a key created since works after this).
      FRAMEDECK_INGEST_KEY_CACHE_NEGATIVE_TTL_MS: env.positiveInt(1_000),
      // Keys' last-use times (shown in the dashboard's key list) are written at most this often.
      FRAMEDECK_INGEST_KEY_LAST_USED_FLUSH_MS: env.positiveInt(60_000),
      // Longest wait for Kafka's acknowledgement before answering 503.
      FRAMEDECK_INGEST_PUBLISH_TIMEOUT_MS: env.positiveInt(5_000),
      // Requests arriving within this window share one Kafka produce call.
      FRAMEDECK_INGEST_PUBLISH_LINGER_MS: env.nonNegativeInt(2),
      // Unknown or deactivated keys one client address may send per window before it gets 429.
      FRAMEDECK_INGEST_INVALID_KEYS_PER_WINDOW: env.positiveInt(20),
      // The (fixed) window of that count.
      FRAMEDECK_INGEST_INVALID_KEYS_WINDOW_SECONDS: env.positiveInt(60),
      // After an early refusal answered with Connection: close, how long the rest of the body is discarded.
      FRAMEDECK_INGEST_LINGER_MS: env.positiveInt(2_000),
    },
    source,
  );
  return {
    maxInflatedBytes: e.FRAMEDECK_INGEST_MAX_INFLATED_BYTES,
    bodyTimeoutMs: e.FRAMEDECK_INGEST_BODY_TIMEOUT_MS,
    keyCacheTtlMs: e.FRAMEDECK_INGEST_KEY_CACHE_TTL_MS,
    keyCacheNegativeTtlMs: e.FRAMEDECK_INGEST_KEY_CACHE_NEGATIVE_TTL_MS,
    keyLastUsedFlushMs: e.FRAMEDECK_INGEST_KEY_LAST_USED_FLUSH_MS,
    publishTimeoutMs: e.FRAMEDECK_INGEST_PUBLISH_TIMEOUT_MS,
    publishLingerMs: e.FRAMEDECK_INGEST_PUBLISH_LINGER_MS,
    invalidKeys: {
      perWindow: e.FRAMEDECK_INGEST_INVALID_KEYS_PER_WINDOW,
      windowSeconds: e.FRAMEDECK_INGEST_INVALID_KEYS_WINDOW_SECONDS,
    },
    lingerMs: e.FRAMEDECK_INGEST_LINGER_MS,
  };
}
export type IngestConfig = ReturnType<typeof ingestSection>;

export function loadGatewayConfig(source: Env = process.env) {
  return collectSections({
    listen: () => listenSection(source, 'FRAMEDECK_INGEST_PORT', 8081),
    ingest: () => ingestSection(source),
    kafka: () => kafkaSection(source),
    postgres: () => postgresSection(source),
    redis: () => redisSection(source),
    logging: () => loggingSection(source),
    metrics: () => metricsSection(source, 'FRAMEDECK_INGEST_METRICS_PORT', 9481),
    proxies: () => trustedProxiesSection(source),
  });
}
export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
