import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import testEnv from './test-env.json' with { type: 'json' };

/**
 * The test harness's configuration: the one module of tests/ that reads the environment it was
 * started with, as each service's config.ts is for the service.
 */
const harnessEnv = process.env;

/**
 * The environment every integration test (and every service process a test starts) runs
 * with: its own Postgres database, ClickHouse database, Kafka topics, Redis key prefix and
 * ports, so `npm test` never touches the data of a running `npm start`.
 * The values live in test-env.json so that infra/local/test.sh exports the same ones.
 */
export const TEST_ENV: Readonly<Record<string, string>> = { ...testEnv, ...clickhouseSelection() };

/**
 * Which ClickHouse the run reaches: `npm test` runs the suite once per engine
 * (FRAMEDECK_CLICKHOUSE_ENGINE, and FRAMEDECK_CLICKHOUSE_URL when set), and every config the
 * tests build from TEST_ENV must follow it.
 */
function clickhouseSelection(): Record<string, string> {
  const selection: Record<string, string> = {};
  for (const name of ['FRAMEDECK_CLICKHOUSE_ENGINE', 'FRAMEDECK_CLICKHOUSE_URL']) {
    const value = harnessEnv[name];
    if (value) selection[name] = value;
  }
  return selection;
}

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where infra/local keeps data, logs and pid files (FRAMEDECK_STATE_DIR, as the scripts read it). */
export const STATE_DIR = harnessEnv.FRAMEDECK_STATE_DIR ?? `${REPO_ROOT}.state`;

/**
 * The ClickHouse engine this run's tests reach (FRAMEDECK_CLICKHOUSE_ENGINE, as the scripts and
 * the services read it): its pid file is the one infra/local writes for that engine.
 */
export const CLICKHOUSE_ENGINE = harnessEnv.FRAMEDECK_CLICKHOUSE_ENGINE === 'modern' ? 'modern' : 'legacy';
export const CLICKHOUSE_PID_NAME = CLICKHOUSE_ENGINE === 'modern' ? 'clickhouse-modern' : 'clickhouse';
export const CLICKHOUSE_PID_FILE = `${STATE_DIR}/run/${CLICKHOUSE_PID_NAME}.pid`;

/** FRAMEDECK_UPDATE_GENERATED=1: tests that check a generated file rewrite it instead. */
export const UPDATE_GENERATED = harnessEnv.FRAMEDECK_UPDATE_GENERATED === '1';

/** `npm run test:reliability` sets FRAMEDECK_RELIABILITY_FULL=1: more fuzz cases, a fresh seed. */
export const RELIABILITY_FULL = harnessEnv.FRAMEDECK_RELIABILITY_FULL === '1';

/**
 * The fuzzers' seed: FRAMEDECK_FUZZ_SEED reproduces a run; otherwise a fresh one in full
 * reliability runs and a fixed one in `npm test` (so CI is repeatable).
 */
export const FUZZ_SEED = harnessEnv.FRAMEDECK_FUZZ_SEED
  ? Number(harnessEnv.FRAMEDECK_FUZZ_SEED) >>> 0
  : RELIABILITY_FULL
    ? randomInt(2 ** 31)
    : 20_251_121;

/** The environment of a process the harness starts: the harness's own (PATH, HOME, …), then `overrides`. */
export function inheritedEnv(overrides: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  return { ...harnessEnv, ...overrides };
}

/** The environment of a service process a test starts: the inherited one, the test values, then `overrides`. */
export function serviceEnv(overrides: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  return inheritedEnv({ ...TEST_ENV, ...overrides });
}

/** Makes the test values this process's own environment (vitest's global setup: the workers inherit it). */
export function adoptTestEnv(): void {
  Object.assign(harnessEnv, TEST_ENV);
}

/**
 * The local broker's SCRAM listeners (SASL_PLAINTEXT, and SASL_SSL with the CA up.sh made) and
 * the user infra/local/up.sh creates for them (the same variables and defaults as
 * infra/local/lib.sh).
 */
export const KAFKA_SCRAM = {
  broker: `127.0.0.1:${harnessEnv.FRAMEDECK_KAFKA_SASL_PORT ?? '9094'}`,
  tlsBroker: `127.0.0.1:${harnessEnv.FRAMEDECK_KAFKA_SASL_SSL_PORT ?? '9095'}`,
  caFile: `${STATE_DIR}/kafka/tls/ca.pem`,
  username: harnessEnv.FRAMEDECK_KAFKA_SCRAM_USER ?? 'framedeck',
  password: harnessEnv.FRAMEDECK_KAFKA_SCRAM_PASSWORD ?? 'framedeck-kafka-dev',
} as const;
