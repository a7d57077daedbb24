import { createAdminClient } from '@framedeck/clickhouse';
import { createKafka } from '@framedeck/kafka';
import { closeServer, runMain, Shutdown, startHealthServer } from '@framedeck/lifecycle';
import { createLogger } from '@framedeck/logging';
import { loadConsumerConfig } from './config.js';

runMain('events-consumer', async () => {
  const config = loadConsumerConfig();
  const logger = createLogger('events-consumer', config.logging.level);
  const clickhouse = createAdminClient(config.clickhouse);
  const kafka = createKafka(config.kafka, logger, '-consumer');
  const admin = kafka.admin();

  const shutdown = new Shutdown(logger).exitOnSignals();
  const health = await startHealthServer({
    ...config.health,
    isShuttingDown: () => shutdown.started,
    checks: {
      clickhouse: async () => {
        if (!(await clickhouse.ping()).success) throw new Error('ping failed');
      },
      kafka: async () => {
        await admin.connect();
        await admin.describeCluster();
      },
    },
  });
  shutdown
    .add('stop health server', () => closeServer(health))
    .add('close kafka admin', () => admin.disconnect())
    .add('close clickhouse', () => clickhouse.close());
  logger.info({ health: `http://${config.health.host}:${config.health.port}` }, 'events consumer started');
});
