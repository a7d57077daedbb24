import http from 'node:http';
import { setTimeout } from 'node:timers/promises';
import { createClickHouseReader, createClickHouseWriter } from '@framedeck/clickhouse';
import { closeServer, httpServerOptions, runMain, Shutdown } from '@framedeck/lifecycle';
import { createLogger } from '@framedeck/logging';
import { apiMetrics, createMetricsRegistry, startMetricsListener } from '@framedeck/metrics';
import { createPool } from '@framedeck/postgres';
import { createRedisClient } from '@framedeck/redis';
import { buildApp } from './app.js';
import { loadApiConfig } from './config.js';
import { createIdentity } from './identity.js';
import { startApiWorkers } from './workers.js';
import { loadServerSecrets } from './security/server-secrets.js';

runMain('api', async () => {
  const config = loadApiConfig();
  const logger = createLogger('api', config.logging.level);
  const pool = createPool(config.postgres);
  const redis = createRedisClient(config.redis);
  const clickhouse = {
    reader: createClickHouseReader(config.clickhouse),
    writer: createClickHouseWriter(config.clickhouse),
  };

  // The first requests should count in Redis, not in the in-process fallback the rate limiter
  // uses while Redis is unreachable; start anyway after 2 s if Redis is down.
  // NOTE: not events.once, which rejects on the client's 'error' event (Redis down).
  await Promise.race([new Promise((resolve) => redis.once('ready', resolve)), setTimeout(2_000)]);

  // Generated on the very first start and shared by every instance (Postgres: server_secrets).
  const secrets = await loadServerSecrets(pool);
  const identity = createIdentity({
    pool,
    redis,
    logger,
    appOrigin: config.addresses.appOrigin,
    secrets,
    cliClientId: config.api.oauthCliClientId,
  });

  const registry = createMetricsRegistry('api');
  const metricsListener = await startMetricsListener({ ...config.metrics, registry, logger });
  const shutdown = new Shutdown(logger).exitOnSignals();
  const api = buildApp({
    metrics: apiMetrics(registry),
    config,
    logger,
    pool,
    redis,
    clickhouse,
    identity,
    isShuttingDown: () => shutdown.started,
  });
  const server = http
    .createServer(httpServerOptions(config.listen), api.app)
    .listen(config.listen.port, config.listen.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const workers = startApiWorkers({ pool, clickhouseWriter: clickhouse.writer, logger }, config);
  shutdown
    .add('stop accepting requests', () => closeServer(server))
    .add('stop background workers', () => workers.stop())
    .add('flush api key and OAuth app usage', () => api.close())
    .add('close clickhouse', () => Promise.all([clickhouse.reader.close(), clickhouse.writer.close()]))
    .add('close redis', () => redis.quit())
    .add('close postgres', () => pool.end())
    .add('stop metrics listener', () => closeServer(metricsListener));
  logger.info({ address: config.addresses.appOrigin }, 'api listening');
});
