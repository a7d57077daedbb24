import { createClickHouseReader } from '@framedeck/clickhouse';
import { closeServer, runMain, Shutdown, startHealthServer } from '@framedeck/lifecycle';
import { createLogger } from '@framedeck/logging';
import { alertMetrics, createMetricsRegistry, startMetricsListener } from '@framedeck/metrics';
import { createPool } from '@framedeck/postgres';
import { buildAlertEvaluator } from './alert-evaluator.js';
import { loadEvaluatorConfig } from './config.js';

runMain('alert-evaluator', async () => {
  const config = loadEvaluatorConfig();
  const logger = createLogger('alert-evaluator', config.logging.level);
  const pool = createPool(config.postgres);
  const clickhouse = createClickHouseReader(config.clickhouse);

  const shutdown = new Shutdown(logger).exitOnSignals();
  const health = await startHealthServer({
    ...config.health,
    isShuttingDown: () => shutdown.started,
    checks: {
      postgres: () => pool.query('SELECT 1'),
      clickhouse: async () => {
        if (!(await clickhouse.ping())) throw new Error('ping failed');
      },
    },
  });
  const registry = createMetricsRegistry('alert-evaluator');
  const metricsListener = await startMetricsListener({
    ...config.metrics,
    registry,
    logger,
  });
  const alerts = buildAlertEvaluator({ config, pool, clickhouse, logger, metrics: alertMetrics(registry) });
  alerts.start();
  shutdown
    .add('stop evaluating and delivering', () => alerts.stop())
    .add('stop health server', () => closeServer(health))
    .add('stop metrics listener', () => closeServer(metricsListener))
    .add('close clickhouse', () => clickhouse.close())
    .add('close postgres', () => pool.end());
  logger.info(
    {
      health: `http://${config.health.host}:${config.health.port}`,
      evaluationIntervalMs: config.alerts.evaluationIntervalMs,
    },
    'alert evaluator started',
  );
});
