import { createKafka } from '@framedeck/kafka';
import { closeServer, runMain, Shutdown } from '@framedeck/lifecycle';
import { createLogger } from '@framedeck/logging';
import { createPool } from '@framedeck/postgres';
import { buildGatewayServer } from './app.js';
import { loadGatewayConfig } from './config.js';

runMain('ingest-gateway', async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('ingest-gateway', config.logging.level);
  const pool = createPool(config.postgres);
  const kafka = createKafka(config.kafka, logger, '-gateway');
  const admin = kafka.admin();

  const shutdown = new Shutdown(logger).exitOnSignals();
  const server = buildGatewayServer({
    isShuttingDown: () => shutdown.started,
    checks: {
      postgres: () => pool.query('SELECT 1'),
      kafka: async () => {
        await admin.connect();
        await admin.describeCluster();
      },
    },
  });
  shutdown
    .add('stop accepting requests', () => closeServer(server))
    .add('close kafka admin', () => admin.disconnect())
    .add('close postgres', () => pool.end());

  await new Promise<void>((resolve) => server.listen(config.listen.port, config.listen.host, resolve));
  logger.info({ address: `http://${config.listen.host}:${config.listen.port}` }, 'ingest gateway listening');
});
