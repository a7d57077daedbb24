import {
  clickhouseSection,
  collectSections,
  env,
  kafkaSection,
  listenSection,
  loggingSection,
  metricsSection,
  readEnv,
  type Env,
} from '@framedeck/config';

/** How rows are batched into ClickHouse inserts. */
export function sinkSection(source: Env) {
  const e = readEnv(
    {
      // A block is inserted at this many rows …
      FRAMEDECK_CONSUMER_FLUSH_ROWS: env.positiveInt(100_000),
      // … or this many RowBinary bytes (or after the flush interval).
      FRAMEDECK_CONSUMER_FLUSH_BYTES: env.positiveInt(32 * 1024 * 1024),
      // Upper bound on how long an accepted event waits in memory before its insert starts.
      FRAMEDECK_CONSUMER_FLUSH_INTERVAL_MS: env.positiveInt(500),
      // Partitions processed concurrently by one consumer process (rows share blocks).
      FRAMEDECK_CONSUMER_CONCURRENCY: env.positiveInt(4),
      // How long the group waits for a member that stopped heartbeating (e.g. a crashed
      // process) before its partitions move to another member. The broker accepts 6-300 s.
      FRAMEDECK_CONSUMER_SESSION_TIMEOUT_MS: env.positiveInt(30_000),
    },
    source,
  );
  return {
    flushRows: e.FRAMEDECK_CONSUMER_FLUSH_ROWS,
    flushBytes: e.FRAMEDECK_CONSUMER_FLUSH_BYTES,
    flushIntervalMs: e.FRAMEDECK_CONSUMER_FLUSH_INTERVAL_MS,
    concurrency: e.FRAMEDECK_CONSUMER_CONCURRENCY,
    sessionTimeoutMs: e.FRAMEDECK_CONSUMER_SESSION_TIMEOUT_MS,
  };
}

export function loadConsumerConfig(source: Env = process.env) {
  return collectSections({
    health: () => listenSection(source, 'FRAMEDECK_CONSUMER_HEALTH_PORT', 8082),
    sink: () => sinkSection(source),
    kafka: () => kafkaSection(source),
    clickhouse: () => clickhouseSection(source),
    logging: () => loggingSection(source),
    metrics: () => metricsSection(source, 'FRAMEDECK_CONSUMER_METRICS_PORT', 9482),
  });
}
export type ConsumerConfig = ReturnType<typeof loadConsumerConfig>;
