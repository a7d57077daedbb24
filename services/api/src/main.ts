import { once } from 'node:events';
import { setTimeout } from 'node:timers/promises';
import { createAdminClient } from '@framedeck/clickhouse';
import { closeServer, runMain, Shutdown } from '@framedeck/lifecycle';
import { createLogger } from '@framedeck/logging';
import { createPool } from '@framedeck/postgres';
import { createRedisClient } from '@framedeck/redis';
import { buildApp } from './app.js';
import { loadApiConfig } from './config.js';

runMain('api', async () => {
  const config = loadApiConfig();
  const logger = createLogger('api', config.logging.level);
  const pool = createPool(config.postgres);
  const redis = createRedisClient(config.redis);
  const clickhouse = createAdminClient(config.clickhouse);

  // The first requests should count in Redis, not in the in-process fallback the rate limiter
  // uses while Redis is unreachable; start anyway after 2 s if Redis is down.
  await Promise.race([once(redis, 'ready'), setTimeout(2_000)]);

  const shutdown = new Shutdown(logger).exitOnSignals();
  const api = buildApp({ config, logger, pool, redis, clickhouse, isShuttingDown: () => shutdown.started });
  const server = api.app.listen(config.listen.port, config.listen.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  shutdown
    .add('stop accepting requests', () => closeServer(server))
    .add('flush api key usage', () => api.close())
    .add('close clickhouse', () => clickhouse.close())
    .add('close redis', () => redis.quit())
    .add('close postgres', () => pool.end());
  logger.info({ address: config.addresses.appOrigin }, 'api listening');
});
