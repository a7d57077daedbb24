import type { ClickHouseReader } from './reader.js';
import { distinctPlayersSql, distinctSessionsSql, MERGED_SESSIONS_SQL, mergedPlayersSql } from './distinct-counts.js';
import { sql } from './sql.js';

const DAY_SECONDS = 86_400;
// Ingest accepts timestamps up to 30 days old: a last event can be found within 31 days.
const LOOKBACK_SECONDS = 31 * DAY_SECONDS;

export type ProjectActivity = {
  events24h: number;
  events7d: number;
  lastEventAt: Date | null;
  activePlayers24h: number;
  activeSessions24h: number;
};

/**
 * A project's recent activity. "Last 24 hours" and "last 7 days" are counted in whole UTC
 * hours (from the start of the hour 24 hours / 7 days ago), and timestamps up to 48 h ahead
 * (accepted by ingest) count too.
 *
 * From rollup_project_hours (clickhouse/007) by default: at most 31 × 24 rows per project,
 * whatever its volume, each batch counted once (so no FINAL is needed); the distinct counts
 * from rollup_hour_sketches (024, 025), 24 rows. `events` is the plain
 * query over raw events (FINAL: redelivered batches leave duplicates until merges collapse
 * them) that the tests hold the rollup to. Distinct players and sessions are uniqCombined at the
 * precision of every player count (distinct-counts.ts: exact up to 512, then ≈ 1.15 % standard
 * error), the same on both.
 */
export async function queryProjectActivity(
  reader: ClickHouseReader,
  projectId: string,
  source: 'rollups' | 'events' = 'rollups',
): Promise<ProjectActivity> {
  const row = await (source === 'rollups' ? activityFromRollups : activityFromEvents)(reader, projectId);
  const lastEventUs = Number(row.lastEventUs ?? 0);
  return {
    events24h: Number(row.events24h ?? 0),
    events7d: Number(row.events7d ?? 0),
    lastEventAt: lastEventUs > 0 ? new Date(Math.floor(lastEventUs / 1000)) : null,
    activePlayers24h: Number(row.players24h ?? 0),
    activeSessions24h: Number(row.sessions24h ?? 0),
  };
}

type ActivityRow = Partial<
  Record<'events24h' | 'events7d' | 'lastEventUs' | 'players24h' | 'sessions24h', string | number>
>;

/** The start of the UTC hour `seconds` ago. */
const hoursSince = (seconds: number) => sql`toStartOfHour(now() - ${seconds})`;

async function activityFromRollups(reader: ClickHouseReader, projectId: string): Promise<ActivityRow> {
  const [counts, active] = await Promise.all([
    reader.rows<ActivityRow>(sql`
    SELECT
      countMergeIf(events, hour >= ${hoursSince(DAY_SECONDS)}) AS events24h,
      countMergeIf(events, hour >= ${hoursSince(7 * DAY_SECONDS)}) AS events7d,
      maxMerge(last_event_us) AS lastEventUs
    FROM rollup_project_hours
    WHERE project_id = toUUID(${projectId}) AND hour >= ${hoursSince(LOOKBACK_SECONDS)}`),
    // The distinct counts read the last 24 hours' rows only, from a table in small granules
    // (clickhouse/024): a -MergeIf reads the state of every row it skips, and a granule's every
    // state is read (measured: ~55 ms for the two over rollup_project_hours, ~7 ms here).
    reader.rows<ActivityRow>(sql`
    SELECT ${mergedPlayersSql()} AS players24h, ${MERGED_SESSIONS_SQL} AS sessions24h
    FROM rollup_hour_sketches
    WHERE project_id = toUUID(${projectId}) AND hour >= ${hoursSince(DAY_SECONDS)}`),
  ]);
  return { ...counts[0], ...active[0] };
}

async function activityFromEvents(reader: ClickHouseReader, projectId: string): Promise<ActivityRow> {
  const [row] = await reader.rows<ActivityRow>(sql`
    SELECT
      countIf(timestamp >= ${hoursSince(DAY_SECONDS)}) AS events24h,
      countIf(timestamp >= ${hoursSince(7 * DAY_SECONDS)}) AS events7d,
      max(timestamp_us) AS lastEventUs,
      ${distinctPlayersSql(sql`timestamp >= ${hoursSince(DAY_SECONDS)}`)} AS players24h,
      ${distinctSessionsSql(sql`timestamp >= ${hoursSince(DAY_SECONDS)}`)} AS sessions24h
    FROM events FINAL
    WHERE project_id = toUUID(${projectId}) AND timestamp >= ${hoursSince(LOOKBACK_SECONDS)}`);
  return row ?? {};
}

/**
 * Events the consumer discarded since `sinceDay` (YYYY-MM-DD), by reason, most frequent first.
 * Summed with FINAL: a redelivered batch replaces its own counts (see 002_event_rejections).
 */
export async function queryProjectRejections(
  reader: ClickHouseReader,
  projectId: string,
  sinceDay: string,
): Promise<{ reason: string; count: number }[]> {
  const query = sql`
    SELECT reason, sum(count) AS total
    FROM event_rejections FINAL
    WHERE project_id = toUUID(${projectId}) AND day >= toDate(${sinceDay})
    GROUP BY reason
    ORDER BY total DESC, reason`;
  const rows = await reader.rows<{ reason: string; total: string | number }>(query);
  return rows.map((r) => ({ reason: r.reason, count: Number(r.total) }));
}
