/**
 * The environment every integration test (and every service process a test starts) runs
 * with. Tests use their own Postgres database, ClickHouse database, Kafka topics, Redis key
 * prefix and ports, so `npm test` never touches the data of a running `npm start`.
 */
export const TEST_ENV = {
  FRAMEDECK_POSTGRES_URL: 'postgres://postgres:postgres@127.0.0.1:5432/framedeck_test',
  FRAMEDECK_CLICKHOUSE_DATABASE: 'framedeck_test',
  FRAMEDECK_REDIS_PREFIX: 'fdtest:',
  FRAMEDECK_KAFKA_EVENTS_TOPIC: 'framedeck-test.telemetry-batches.v1',
  FRAMEDECK_KAFKA_DEAD_LETTER_TOPIC: 'framedeck-test.telemetry-batches.dead-letter.v1',
  FRAMEDECK_KAFKA_CONSUMER_GROUP: 'framedeck-test-events-consumer',
  FRAMEDECK_API_PORT: '18080',
  FRAMEDECK_INGEST_PORT: '18081',
  FRAMEDECK_CONSUMER_HEALTH_PORT: '18082',
  FRAMEDECK_EVALUATOR_HEALTH_PORT: '18083',
  FRAMEDECK_APP_ORIGIN: 'http://127.0.0.1:18080',
  FRAMEDECK_INGEST_URL: 'http://127.0.0.1:18081',
  FRAMEDECK_LOG_LEVEL: 'warn',
} as const satisfies Record<string, string>;
