import {
  addressesSection,
  clickhouseSection,
  collectSections,
  ConfigError,
  env,
  listenSection,
  loggingSection,
  metricsSection,
  notificationsSection,
  postgresSection,
  readEnv,
  type Env,
} from '@framedeck/config';

/** The evaluator's schedule and the deliverer's retry policy (README: Alerts). */
export function alertsSection(source: Env) {
  const e = readEnv(
    {
      // Every active rule is evaluated once per interval.
      FRAMEDECK_ALERTS_EVALUATION_INTERVAL_MS: env.positiveInt(60_000),
      // How often the evaluator looks for due rules and the deliverer for due deliveries.
      FRAMEDECK_ALERTS_POLL_INTERVAL_MS: env.positiveInt(5_000),
      // A claimed rule (or delivery) is ours this long; another instance takes it over afterwards.
      FRAMEDECK_ALERTS_LEASE_MS: env.positiveInt(120_000),
      // Rules, and deliveries, claimed at once.
      FRAMEDECK_ALERTS_BATCH_SIZE: env.positiveInt(20),
      // Delivery attempts before a notification is marked failed.
      FRAMEDECK_NOTIFICATIONS_MAX_ATTEMPTS: env.positiveInt(8),
      // Backoff: base × 2^(attempt − 1) with ½–1× jitter …
      FRAMEDECK_NOTIFICATIONS_RETRY_BASE_MS: env.positiveInt(10_000),
      // … capped at this.
      FRAMEDECK_NOTIFICATIONS_RETRY_MAX_MS: env.positiveInt(3_600_000),
      // One delivery attempt; the lease must exceed it by 1 s.
      FRAMEDECK_NOTIFICATIONS_TIMEOUT_MS: env.positiveInt(10_000),
    },
    source,
  );
  // NOTE: a lease shorter than one delivery attempt would let a second instance send it again.
  if (e.FRAMEDECK_ALERTS_LEASE_MS < e.FRAMEDECK_NOTIFICATIONS_TIMEOUT_MS + 1_000) {
    throw new ConfigError([
      'FRAMEDECK_ALERTS_LEASE_MS: must exceed FRAMEDECK_NOTIFICATIONS_TIMEOUT_MS by at least 1000 ms',
    ]);
  }
  return {
    evaluationIntervalMs: e.FRAMEDECK_ALERTS_EVALUATION_INTERVAL_MS,
    pollIntervalMs: e.FRAMEDECK_ALERTS_POLL_INTERVAL_MS,
    leaseMs: e.FRAMEDECK_ALERTS_LEASE_MS,
    batchSize: e.FRAMEDECK_ALERTS_BATCH_SIZE,
    delivery: {
      retry: {
        maxAttempts: e.FRAMEDECK_NOTIFICATIONS_MAX_ATTEMPTS,
        baseDelayMs: e.FRAMEDECK_NOTIFICATIONS_RETRY_BASE_MS,
        maxDelayMs: e.FRAMEDECK_NOTIFICATIONS_RETRY_MAX_MS,
      },
      timeoutMs: e.FRAMEDECK_NOTIFICATIONS_TIMEOUT_MS,
    },
  };
}

export function loadEvaluatorConfig(source: Env = process.env) {
  return collectSections({
    health: () => listenSection(source, 'FRAMEDECK_EVALUATOR_HEALTH_PORT', 8083),
    postgres: () => postgresSection(source),
    clickhouse: () => clickhouseSection(source),
    addresses: () => addressesSection(source),
    logging: () => loggingSection(source),
    notifications: () => notificationsSection(source),
    alerts: () => alertsSection(source),
    metrics: () => metricsSection(source, 'FRAMEDECK_EVALUATOR_METRICS_PORT', 9483),
  });
}
export type EvaluatorConfig = ReturnType<typeof loadEvaluatorConfig>;
