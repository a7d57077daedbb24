import { ApiKeyLookup } from '@framedeck/accounts';
import { compileProxyTrust } from '@framedeck/http-edge';
import { createKafka, createProducer } from '@framedeck/kafka';
import { closeServer, httpServerOptions, runMain, Shutdown } from '@framedeck/lifecycle';
import { createLogger } from '@framedeck/logging';
import { createMetricsRegistry, ingestMetrics, startMetricsListener } from '@framedeck/metrics';
import { createPool } from '@framedeck/postgres';
import { createRedisClient } from '@framedeck/redis';
import { buildGatewayServer } from './app.js';
import { createIngestKeyAuthenticator } from './auth/ingest-key.authenticator.js';
import { loadGatewayConfig } from './config.js';
import { createIngestLimiter, createInvalidKeyLimiter } from './limits/ingest.limiter.js';
import { observeProduceLatency } from './metrics/produce-latency.js';
import { BatchPublisher } from './publish/batch.publisher.js';

runMain('ingest-gateway', async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('ingest-gateway', config.logging.level);
  const registry = createMetricsRegistry('ingest-gateway');
  const metrics = ingestMetrics(registry);
  const pool = createPool(config.postgres);
  const redis = createRedisClient(config.redis);
  const kafka = createKafka(config.kafka, logger, '-gateway');
  const admin = kafka.admin();
  const producer = createProducer(kafka);
  observeProduceLatency(producer, metrics);
  const publisher = new BatchPublisher(producer, {
    topic: config.kafka.eventsTopic,
    lingerMs: config.ingest.publishLingerMs,
    timeoutMs: config.ingest.publishTimeoutMs,
    logger,
    limits: config.kafka.producer,
  });
  // Connect early so the first request does not pay for it; a broker that is down now is
  // retried on the first publish (the gateway still starts and answers 503 meanwhile).
  producer.connect().catch((error: Error) => logger.warn({ err: error.message }, 'kafka not reachable at start'));

  const apiKeys = new ApiKeyLookup(pool, {
    ttlMs: config.ingest.keyCacheTtlMs,
    negativeTtlMs: config.ingest.keyCacheNegativeTtlMs,
    lastUsedFlushMs: config.ingest.keyLastUsedFlushMs,
    onFlushError: (error, keys) => logger.warn({ err: error, keys }, 'could not record API key last use'),
  });

  const shutdown = new Shutdown(logger).exitOnSignals();
  const server = buildGatewayServer({
    isShuttingDown: () => shutdown.started,
    serverOptions: httpServerOptions(config.listen),
    checks: {
      postgres: () => pool.query('SELECT 1'),
      kafka: async () => {
        await admin.connect();
        await admin.describeCluster();
      },
    },
    authenticate: createIngestKeyAuthenticator(apiKeys, pool),
    limiter: createIngestLimiter(redis, logger),
    invalidKeys: createInvalidKeyLimiter(redis, logger, config.ingest.invalidKeys),
    publish: (batch) => publisher.publish(batch),
    config: config.ingest,
    logger,
    trust: compileProxyTrust(config.proxies.trustedProxies),
    metrics,
  });
  const metricsListener = await startMetricsListener({ ...config.metrics, registry, logger });
  shutdown
    .add('stop accepting requests', () => closeServer(server))
    .add('flush kafka producer', () => publisher.drain())
    .add('close kafka producer', () => producer.disconnect())
    .add('close kafka admin', () => admin.disconnect())
    .add('record key last use', () => apiKeys.close())
    .add('close redis', () => redis.quit())
    .add('close postgres', () => pool.end())
    .add('stop metrics listener', () => closeServer(metricsListener));

  await new Promise<void>((resolve) => server.listen(config.listen.port, config.listen.host, resolve));
  logger.info({ address: `http://${config.listen.host}:${config.listen.port}` }, 'ingest gateway listening');
});
