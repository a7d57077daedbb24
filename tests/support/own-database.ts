import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import {
  CLICKHOUSE_MIGRATIONS_DIR,
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
 * that stopped before `drop` leaves one behind). `migratedBefore: N` applies only the migrations
 * numbered below N, for a test that follows the upgrade N makes (it then runs migrateClickHouse
 * itself). `drop` removes it.
 */
export async function ownClickHouseDatabase(
  suffix: string,
  options: { migratedBefore?: number } = {},
): Promise<OwnDatabase> {
  const config = { ...testConfig.clickhouse, database: `${testConfig.clickhouse.database}_${suffix}` };
  await ensureClickHouseDatabase(config);
  const writer = createClickHouseWriter(config);
  const dropDatabase = () => writer.command(sql`DROP DATABASE IF EXISTS ${identifier(config.database)}`);
  // The writer's connection names the database, so it is created before it can be dropped.
  await dropDatabase();
  await ensureClickHouseDatabase(config);
  if (options.migratedBefore === undefined) await migrateClickHouse(writer);
  else {
    const dir = await migrationsBefore(options.migratedBefore);
    await migrateClickHouse(writer, dir).finally(() => rm(dir, { recursive: true, force: true }));
  }
  const drop = async () => {
    await dropDatabase().catch(() => undefined);
    await writer.close();
  };
  return { config, writer, drop };
}

/** A copy of the migration files without those numbered `fromNumber` and above. */
async function migrationsBefore(fromNumber: number): Promise<string> {
  const dir = await mkdtemp(`${tmpdir()}/ch-migrations-before-${fromNumber}-`);
  await cp(CLICKHOUSE_MIGRATIONS_DIR, dir, { recursive: true });
  for (const file of await readdir(dir)) if (Number(file.slice(0, 3)) >= fromNumber) await rm(`${dir}/${file}`);
  return dir;
}
