import { execFileSync } from 'node:child_process';
import { REPO_ROOT, TEST_ENV } from '../../support/config.js';

/**
 * The cluster topology's addresses, as infra/local/cluster.sh prints them for the app (its
 * ClickHouse balancer and cluster name, the three brokers, RF 3 and min ISR 2): the one place
 * they are defined.
 */
function clusterScriptEnv(): Record<string, string> {
  const text = execFileSync('bash', [`${REPO_ROOT}infra/local/cluster.sh`, 'env'], { encoding: 'utf8' });
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^export ([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) values[m[1]!] = m[2]!;
  }
  return values;
}

/**
 * The cluster tests' environment: the integration tests' values (topic names, log level, …),
 * then the cluster's addresses, then databases, ports and a Redis prefix of their own, so a
 * cluster run never touches the single-node tests' data or ports (they may run at the same time).
 * Each service runs twice, on its port + 100 and + 200 (infra/local/run-services.mjs).
 * NOTE: every port stays below Linux's ephemeral range (32768–60999): a restarted instance could
 * otherwise find its port taken by some outgoing connection's local end (measured: EADDRINUSE on
 * 38182 during a rolling restart).
 */
export const CLUSTER_ENV: Readonly<Record<string, string>> = {
  ...TEST_ENV,
  ...clusterScriptEnv(),
  FRAMEDECK_POSTGRES_URL: 'postgres://postgres:postgres@127.0.0.1:5432/framedeck_cluster_test',
  FRAMEDECK_CLICKHOUSE_DATABASE: 'framedeck_cluster_test',
  FRAMEDECK_REDIS_PREFIX: 'fdcluster:',
  FRAMEDECK_API_PORT: '28080',
  FRAMEDECK_INGEST_PORT: '28081',
  FRAMEDECK_CONSUMER_HEALTH_PORT: '28082',
  FRAMEDECK_EVALUATOR_HEALTH_PORT: '28083',
  FRAMEDECK_API_METRICS_PORT: '28480',
  FRAMEDECK_INGEST_METRICS_PORT: '28481',
  FRAMEDECK_CONSUMER_METRICS_PORT: '28482',
  FRAMEDECK_EVALUATOR_METRICS_PORT: '28483',
  FRAMEDECK_APP_ORIGIN: 'http://127.0.0.1:28080',
  FRAMEDECK_INGEST_URL: 'http://127.0.0.1:28081',
};

export const CLUSTER_API = CLUSTER_ENV.FRAMEDECK_APP_ORIGIN!;
export const CLUSTER_INGEST = CLUSTER_ENV.FRAMEDECK_INGEST_URL!;
