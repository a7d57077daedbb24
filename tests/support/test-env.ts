import testEnv from './test-env.json' with { type: 'json' };

/**
 * The environment every integration test (and every service process a test starts) runs
 * with: its own Postgres database, ClickHouse database, Kafka topics, Redis key prefix and
 * ports, so `npm test` never touches the data of a running `npm start`.
 * The values live in test-env.json so that infra/local/test.sh exports the same ones.
 */
export const TEST_ENV: Readonly<Record<string, string>> = testEnv;
