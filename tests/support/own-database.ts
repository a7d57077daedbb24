import {
  createClickHouseWriter,
  ensureClickHouseDatabase,
  identifier,
  migrateClickHouse,
  sql,
  type ClickHouseWriter,
} from '@framedeck/clickhouse';
import type { ClickHouseConfig } from '@framedeck/config';
import { testConfig } from './stack.js';

export type OwnDatabase = { config: ClickHouseConfig; writer: ClickHouseWriter; drop: () => Promise<void> };

/**
 * A ClickHouse database of the test's own (`<test database>_<suffix>`), migrated like every
 * other, for tests that must not share one: the retention worker drops every expired partition
 * of its database, and a detached table refuses the other tests' inserts. It starts empty (a run
 * that stopped before `drop` leaves one behind). `migrationsDir` migrates from another directory
 * of migration files, e.g. those before a migration whose upgrade a test follows. `drop` removes it.
 */
export async function ownClickHouseDatabase(
  suffix: string,
  options: { migrationsDir?: string } = {},
): Promise<OwnDatabase> {
  const config = { ...testConfig.clickhouse, database: `${testConfig.clickhouse.database}_${suffix}` };
  await ensureClickHouseDatabase(config);
  const writer = createClickHouseWriter(config);
  const dropDatabase = () => writer.command(sql`DROP DATABASE IF EXISTS ${identifier(config.database)}`);
  // The writer's connection names the database, so it is created before it can be dropped.
  await dropDatabase();
  await ensureClickHouseDatabase(config);
  await migrateClickHouse(writer, options.migrationsDir);
  const drop = async () => {
    await dropDatabase().catch(() => undefined);
    await writer.close();
  };
  return { config, writer, drop };
}
