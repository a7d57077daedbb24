import type { ClickHouseReader } from './reader.js';
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
 * A project's recent activity in one scan of its last 31 days (the primary key starts with
 * project_id and the day, so this reads only the project's recent granules).
 * NOTE: FINAL, because redelivered batches leave duplicates until merges collapse them and a
 * status page must not show inflated counts. Timestamps up to 48 h ahead (accepted by ingest)
 * count as "last 24 h".
 */
export async function queryProjectActivity(reader: ClickHouseReader, projectId: string): Promise<ProjectActivity> {
  const query = sql`
    SELECT
      countIf(timestamp >= now() - ${DAY_SECONDS}) AS events24h,
      countIf(timestamp >= now() - ${7 * DAY_SECONDS}) AS events7d,
      max(timestamp_us) AS lastEventUs,
      uniqExactIf(player_id, timestamp >= now() - ${DAY_SECONDS} AND player_id != '') AS players24h,
      uniqExactIf(session_id, timestamp >= now() - ${DAY_SECONDS}) AS sessions24h
    FROM events FINAL
    WHERE project_id = toUUID(${projectId}) AND timestamp >= now() - ${LOOKBACK_SECONDS}`;
  const [row] = await reader.rows<Record<string, string | number>>(query);
  const lastEventUs = Number(row?.lastEventUs ?? 0);
  return {
    events24h: Number(row?.events24h ?? 0),
    events7d: Number(row?.events7d ?? 0),
    lastEventAt: lastEventUs > 0 ? new Date(Math.floor(lastEventUs / 1000)) : null,
    activePlayers24h: Number(row?.players24h ?? 0),
    activeSessions24h: Number(row?.sessions24h ?? 0),
  };
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
