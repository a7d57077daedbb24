import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createClickHouseWriter } from '@framedeck/clickhouse';
import { createPool } from '@framedeck/postgres';
import { createRedisClient } from '@framedeck/redis';
import { buildApp } from '../../../services/api/src/app.js';
import { loadApiConfig } from '../../../services/api/src/config.js';
import { createIdentity } from '../../../services/api/src/identity.js';
import { loadServerSecrets } from '../../../services/api/src/security/server-secrets.js';
import { TEST_ENV } from '../../support/config.js';
import { waitFor } from '../../support/wait.js';

export type IdentityApi = Awaited<ReturnType<typeof startIdentityApi>>;

/**
 * buildApp with the OAuth server and dashboard sessions (createIdentity) on the real test stack,
 * on an ephemeral loopback port. The port is known before the app is built because the OAuth
 * issuer must be the exact origin clients talk to.
 */
export async function startIdentityApi() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadApiConfig({
    ...TEST_ENV,
    FRAMEDECK_APP_ORIGIN: origin,
    FRAMEDECK_API_ANONYMOUS_REQUESTS_PER_HOUR: '100000',
  });
  const logs: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void logs.push(line) });
  const pool = createPool(config.postgres);
  const redis = createRedisClient(config.redis);
  const clickhouse = createClickHouseWriter(config.clickhouse);
  await waitFor(() => redis.status === 'ready', { timeoutMs: 5_000, intervalMs: 10, what: 'Redis to connect' });
  // Sign-in and registration limits of one test file must not leak into the next run.
  const rateLimitKeyPrefix = `rl-${randomUUID()}:`;
  const identity = createIdentity({
    pool,
    redis,
    logger,
    appOrigin: origin,
    secrets: await loadServerSecrets(pool),
    rateLimitKeyPrefix,
    lastUsedFlushMs: 200,
  });
  const api = buildApp({
    config,
    logger,
    pool,
    redis,
    clickhouse: { reader: clickhouse, writer: clickhouse },
    identity,
    rateLimitKeyPrefix,
  });
  server.on('request', api.app);
  return {
    origin,
    baseUrl: `${origin}/api`,
    api,
    identity,
    pool,
    redis,
    logs,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await api.close();
      await Promise.allSettled([pool.end(), clickhouse.close(), redis.quit()]);
    },
  };
}
