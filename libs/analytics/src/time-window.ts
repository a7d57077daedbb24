import { sql, type SqlFragment } from '@framedeck/clickhouse';

/**
 * The time range an analytics query reads: `days` means whole UTC days, from 00:00 UTC of
 * the day `days` × 24 hours before `now`, up to now, plus anything stamped later than `now`
 * (ingest accepts timestamps up to 48 hours ahead, and clocks of game clients drift).
 *
 * Why whole days: the rollups (clickhouse/007) hold one row per day and dimension, so a range
 * of whole days is answered from them alone. A rolling window (days × 24 h back to the
 * minute) would need the events of its partial first day, a scan that grows with volume.
 */
export type TimeWindow = { from: Date; to?: Date };

const DAY_MS = 86_400_000;

export function lastDays(days: number, now: Date = new Date()): TimeWindow {
  const start = now.getTime() - days * DAY_MS;
  return { from: new Date(start - (start % DAY_MS)) };
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

/** The range of lastDays (which starts at 00:00 UTC) on a rollup keyed by `day`: whole days cover it. */
export function projectAndDays(projectId: string, window: Pick<TimeWindow, 'from'>): SqlFragment {
  return sql`project_id = toUUID(${projectId}) AND day >= toDate(${window.from})`;
}

/**
 * The first Monday on or after the window's first day (00:00 UTC). The range has no end, so
 * every Monday-based week from it on lies wholly inside: a weekly rollup answers those, and the
 * daily rows the days before it (at most six).
 */
export function firstWholeWeek(window: Pick<TimeWindow, 'from'>): Date {
  const first = window.from.getTime() - (window.from.getTime() % DAY_MS);
  // getUTCDay: Sunday 0, Monday 1, … Saturday 6; days to the next Monday, 0 on a Monday.
  const toMonday = (8 - new Date(first).getUTCDay()) % 7;
  return new Date(first + toMonday * DAY_MS);
}
