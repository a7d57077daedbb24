import {
  clusterTarget,
  createClickHouseWriter,
  ensureClickHouseDatabase,
  migrateClickHouse,
} from '@framedeck/clickhouse';
import { createKafka, ensureTopics, type EnsureTopicsReport } from '@framedeck/kafka';
import type { Logger } from '@framedeck/logging';
import { createPool, ensureDatabase, migratePostgres } from '@framedeck/postgres';
import type { CliConfig } from '../config.js';

type Applied = { applied: string[]; skipped: string[] };
export type MigrateReport = { postgres: Applied; clickhouse: Applied; kafka: EnsureTopicsReport };

/** How long one migration statement may take (a backfill over ~100 M events takes ~20 min on 2 cores). */
const MIGRATION_TIMEOUT_MS = 3 * 3600_000;

/** Brings Postgres, ClickHouse and Kafka to the schema this code expects. Idempotent. */
export async function migrateAll(config: CliConfig, logger: Logger): Promise<MigrateReport> {
  await ensureDatabase(config.postgres.url);
  const pool = createPool(config.postgres);
  const postgres = await migratePostgres(pool).finally(() => pool.end());

  await ensureClickHouseDatabase(config.clickhouse);
  // A migration that fills a new rollup reads every stored event: minutes on a big database.
  const writer = createClickHouseWriter(config.clickhouse, { requestTimeoutMs: MIGRATION_TIMEOUT_MS });
  const clickhouse = await migrateClickHouse(writer, undefined, clusterTarget(config.clickhouse)).finally(() =>
    writer.close(),
  );

  const kafka = await ensureTopics(createKafka(config.kafka, logger, '-migrate'), config.kafka);
  return { postgres, clickhouse, kafka };
}
