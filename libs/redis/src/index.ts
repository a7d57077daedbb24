import { Redis } from 'ioredis';
import type { RedisConfig } from '@framedeck/config';

export { Redis } from 'ioredis';

/**
 * A Redis client that fails fast instead of queueing commands while Redis is down: callers
 * (rate limiting, caches) decide what an outage means for them, and a request must not hang
 * waiting for a reconnect.
 */
export function createRedisClient(config: RedisConfig): Redis {
  const client = new Redis(config.url, {
    keyPrefix: config.keyPrefix,
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(200 * attempt, 2_000),
  });
  // Connection errors surface on the commands; without a listener ioredis would log each one.
  client.on('error', () => undefined);
  return client;
}
