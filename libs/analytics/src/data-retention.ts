import { identifier, sql, type ClickHouseWriter } from '@framedeck/clickhouse';
import { stringList } from './sql-lists.js';

/**
 * How long each kind of data lives (FrameDeck issue #15):
 *  - raw events, the funnels' copy of them (funnel_steps, clickhouse/018) and their hourly
 *    bounds (funnel_step_hours, 034): the project's retention days (per plan, per project;
 *    Postgres), enforced by the engine: TTL on modern servers (clickhouse/009_*.modern.sql, 019,
 *    035), and on 18.16, which has no TTL, by dropping whole partitions here;
 *  - rollups (rollup_*, and the per-player sets player_days / player_activity): 13 months;
 *  - the rollup ledger rollup_batches: 31 days (the ingest window is 30).
 * Expiry only ever drops whole partitions, so no part of another project is rewritten.
 */
export const DATA_RETENTION = {
  defaultRawDays: 90,
  rollupMonths: 13,
  ledgerDays: 31,
} as const;

const DAY_MS = 86_400_000;

/** The days a project's data window covers: events from `oldestRetainedDay` (UTC) on are kept. */
export type DataWindow = { retentionDays: number; oldestRetainedDay: string; rollupMonths: number };

export function dataWindow(retentionDays: number, now: Date): DataWindow {
  return {
    retentionDays,
    oldestRetainedDay: new Date(now.getTime() - retentionDays * DAY_MS).toISOString().slice(0, 10),
    rollupMonths: DATA_RETENTION.rollupMonths,
  };
}

/** Tables partitioned like the raw events, by (retention days, week), with their TTL on modern servers. */
export const RAW_EVENT_TABLES = ['events', 'funnel_steps', 'funnel_step_hours'] as const;
const RAW_TABLES: ReadonlySet<string> = new Set(RAW_EVENT_TABLES);

export type StoredPartition = { table: string; partitionId: string };

const utcDay = (yyyymmdd: string) =>
  Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8)));

/**
 * The partitions whose every row is past its retention, from their ids:
 *  - the raw tables (RAW_EVENT_TABLES), `<retention_days>-<Monday YYYYMMDD>`: the week's last row is older
 *    than its days;
 *  - month partitions `YYYYMM` of the rollups: the month ended more than 13 months ago;
 *  - rollup_batches, `YYYYMMDD`: the day is more than 31 days ago.
 * An id of another shape is left alone (never guessed at).
 */
export function expiredPartitions(parts: readonly StoredPartition[], now: Date): StoredPartition[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return parts.filter(({ table, partitionId }) => {
    if (RAW_TABLES.has(table)) {
      const match = /^(\d{1,4})-(\d{8})$/.exec(partitionId);
      // NOTE: 0 = a row inserted as JSONEachRow on 18.16 without the column (omitted fields get the
      // type's zero there, not the DEFAULT): it is kept as long as the default.
      const days = Number(match?.[1]) || DATA_RETENTION.defaultRawDays;
      return match !== null && utcDay(match[2]!) + (7 + days) * DAY_MS <= today;
    }
    if (table === 'rollup_batches') {
      return /^\d{8}$/.test(partitionId) && utcDay(partitionId) + DATA_RETENTION.ledgerDays * DAY_MS < today;
    }
    if (!/^\d{6}$/.test(partitionId)) return false;
    const year = Number(partitionId.slice(0, 4));
    const month = Number(partitionId.slice(4, 6)) - 1;
    // The month is kept while it is one of the last 13 months before the current one.
    return Date.UTC(year, month + 1 + DATA_RETENTION.rollupMonths, 1) <= today;
  });
}

/** Tables whose partitions expire (the rollups are found by name, whatever the lead adds). */
const EXPIRING_TABLES = sql`(name IN (${stringList([...RAW_EVENT_TABLES, 'player_days', 'player_activity'])}) OR name LIKE 'rollup\\_%')`;

/**
 * Drops the expired partitions of the current database. A partition drop removes whole parts
 * and rewrites nothing. Returns what was dropped.
 */
export async function dropExpiredPartitions(writer: ClickHouseWriter, now: Date): Promise<StoredPartition[]> {
  const parts = await writer.rows<StoredPartition>(
    sql`SELECT DISTINCT table, partition_id AS partitionId
          FROM system.parts
         WHERE database = currentDatabase() AND active AND table IN (
               SELECT name FROM system.tables
                WHERE database = currentDatabase() AND engine LIKE '%MergeTree' AND ${EXPIRING_TABLES})`,
  );
  const expired = expiredPartitions(parts, now);
  for (const { table, partitionId } of expired) {
    await writer.command(sql`ALTER TABLE ${identifier(table)} DROP PARTITION ID ${partitionId}`);
  }
  return expired;
}
