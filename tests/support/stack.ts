import { createClickHouseWriter, type ClickHouseWriter } from '@framedeck/clickhouse';
import { clickhouseSection, postgresSection, redisSection } from '@framedeck/config';
import { createPool, type Pool } from '@framedeck/postgres';
import { createRedisClient, type Redis } from '@framedeck/redis';
import { TEST_ENV } from './config.js';

/** Typed configuration sections for the test stack (same env the services get). */
export const testConfig = {
  postgres: postgresSection(TEST_ENV),
  clickhouse: clickhouseSection(TEST_ENV),
  redis: redisSection(TEST_ENV),
};

/** Clients on the test databases; close them in afterAll. */
export function connectTestStack(): {
  pool: Pool;
  clickhouse: ClickHouseWriter;
  redis: Redis;
  close: () => Promise<void>;
} {
  const pool = createPool(testConfig.postgres);
  const clickhouse = createClickHouseWriter(testConfig.clickhouse);
  const redis = createRedisClient(testConfig.redis);
  return {
    pool,
    clickhouse,
    redis,
    close: async () => {
      await Promise.allSettled([pool.end(), clickhouse.close(), redis.quit()]);
    },
  };
}
