import { createClickHouseWriter } from '@framedeck/clickhouse';
import { createKafka, createProducer } from '@framedeck/kafka';
import { closeServer, runMain, Shutdown, startHealthServer } from '@framedeck/lifecycle';
import { createLogger } from '@framedeck/logging';
import { consumerMetrics, createMetricsRegistry, startMetricsListener } from '@framedeck/metrics';
import { loadConsumerConfig } from './config.js';
import { readConsumerLag } from './kafka/consumer-lag.js';
import { DeadLetterPublisher } from './kafka/dead-letter.publisher.js';
import { runEventsConsumer } from './kafka/events.consumer.js';
import { EventsSink } from './sink/events.sink.js';

runMain('events-consumer', async () => {
  const config = loadConsumerConfig();
  const logger = createLogger('events-consumer', config.logging.level);
  const clickhouse = createClickHouseWriter(config.clickhouse);
  const kafka = createKafka(config.kafka, logger, '-consumer');
  const admin = kafka.admin();
  const registry = createMetricsRegistry('events-consumer');
  const metrics = consumerMetrics(registry, {
    readLag: () => readConsumerLag(admin, config.kafka.consumerGroup, config.kafka.eventsTopic),
  });
  const consumer = kafka.consumer({
    groupId: config.kafka.consumerGroup,
    sessionTimeout: config.sink.sessionTimeoutMs,
    heartbeatInterval: Math.min(3_000, Math.floor(config.sink.sessionTimeoutMs / 3)),
    // Big fetches make big blocks; a short wait keeps visibility delay low when traffic is thin.
    maxBytesPerPartition: 16 * 1024 * 1024,
    maxBytes: 64 * 1024 * 1024,
    maxWaitTimeInMs: 100,
  });
  const sink = new EventsSink(clickhouse, config.sink, logger, metrics);
  const deadLetters = new DeadLetterPublisher(createProducer(kafka), config.kafka);

  const shutdown = new Shutdown(logger, 15_000).exitOnSignals();
  const health = await startHealthServer({
    ...config.health,
    isShuttingDown: () => shutdown.started,
    checks: {
      clickhouse: async () => {
        if (!(await clickhouse.ping())) throw new Error('ping failed');
      },
      kafka: async () => {
        await admin.connect();
        await admin.describeCluster();
      },
    },
  });
  const metricsListener = await startMetricsListener({
    ...config.metrics,
    registry,
    logger,
  });
  // NOTE: order matters. Flushing first lets the batches in progress finish; disconnecting
  // the consumer waits for them and commits their (resolved) offsets; only then is the sink
  // stopped, which abandons any insert still retrying so its offsets stay uncommitted.
  shutdown
    .add('flush in-flight block', () => sink.flush())
    .add('stop consuming, commit offsets', () => consumer.disconnect())
    .add('stop events sink', () => sink.stop())
    .add('close dead-letter producer', () => deadLetters.close())
    .add('stop health server', () => closeServer(health))
    .add('stop metrics listener', () => closeServer(metricsListener))
    .add('close kafka admin', () => admin.disconnect())
    .add('close clickhouse', () => clickhouse.close());

  await runEventsConsumer({
    consumer,
    sink,
    deadLetters,
    topic: config.kafka.eventsTopic,
    concurrency: config.sink.concurrency,
    logger,
    metrics,
  });
  logger.info({ health: `http://${config.health.host}:${config.health.port}` }, 'events consumer started');
});
