import { sql, type SqlFragment } from '@framedeck/clickhouse';

/**
 * The time range an analytics query reads: `days` means the last days × 24 hours up to
 * `now` (a rolling window, not calendar days), plus anything stamped later than `now`
 * (ingest accepts timestamps up to 48 hours ahead, and clocks of game clients drift).
 */
export type TimeWindow = { from: Date; to?: Date };

const DAY_MS = 86_400_000;

export function lastDays(days: number, now: Date = new Date()): TimeWindow {
  return { from: new Date(now.getTime() - days * DAY_MS) };
}

/**
 * The WHERE conditions for one project and a time range.
 * NOTE: the condition on toDate(timestamp) repeats the one on timestamp so that the sorting
 * key (project_id, toDate(timestamp), …) prunes granules on any ClickHouse version.
 */
export function projectAndWindow(projectId: string, window: TimeWindow): SqlFragment {
  const upper = window.to ? sql` AND timestamp < ${window.to} AND toDate(timestamp) <= toDate(${window.to})` : sql``;
  return sql`project_id = toUUID(${projectId}) AND toDate(timestamp) >= toDate(${window.from}) AND timestamp >= ${window.from}${upper}`;
}
