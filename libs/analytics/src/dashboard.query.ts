import { sql, type ClickHouseReader, type SqlFragment } from '@framedeck/clickhouse';
import type { QuerySource } from './query-source.js';
import { lastDays, projectAndDays, projectAndWindow, type TimeWindow } from './time-window.js';

export const DASHBOARD_DAYS = [7, 14, 30, 90] as const;
export const DASHBOARD_DEFAULTS = { days: 30 } as const;

export type DashboardQuery = { projectId: string; days: number; now?: Date };

export type DashboardDay = { date: string; events: number; players: number; sessions: number };

export type DashboardMetrics = {
  /** Distinct players on the current UTC day so far. */
  dau: number;
  /** Distinct players in the last 30 days (rolling), whatever `days` is. */
  mau: number;
  /** Over the whole requested range. */
  players: number;
  sessions: number;
  events: number;
  /** Mean of the daily distinct players over the days of the range that have data. */
  avgDau: number;
  /** DAU / MAU, 0 when there is no player. */
  stickiness: number;
  /** One entry per UTC day with data, oldest first. */
  daily: DashboardDay[];
};

/** Distinct counts use uniqCombined: exact for small sets, HyperLogLog beyond (see insights). */
const PLAYERS = sql`uniqCombinedIf(player_id, player_id != '')`;

/**
 * Per-day counts and the DAU/MAU pair, from events (the plain query) or from
 * rollup_project_days (clickhouse/016): the days' uniqCombined states merge into the very
 * state one pass over the events builds, so both give the same numbers.
 */
const DASHBOARD_SQL: Record<
  QuerySource,
  {
    daily: (projectId: string, window: TimeWindow) => SqlFragment;
    activeUsers: (projectId: string, window: TimeWindow, now: Date) => SqlFragment;
  }
> = {
  events: {
    daily: (
      projectId,
      window,
    ) => sql`SELECT toString(toDate(timestamp)) AS date, count() AS events, ${PLAYERS} AS players,
                 uniqCombined(session_id) AS sessions
            FROM events
           WHERE ${projectAndWindow(projectId, window)}
           GROUP BY date WITH TOTALS
           ORDER BY date`,
    activeUsers: (
      projectId,
      window,
      now,
    ) => sql`SELECT uniqCombinedIf(player_id, player_id != '' AND toDate(timestamp) = toDate(${now})) AS dau,
                 ${PLAYERS} AS mau
            FROM events
           WHERE ${projectAndWindow(projectId, window)}`,
  },
  rollups: {
    daily: (projectId, window) => sql`SELECT toString(day) AS date, countMerge(events) AS events,
                 uniqCombinedIfMerge(players) AS players, uniqCombinedMerge(sessions) AS sessions
            FROM rollup_project_days
           WHERE ${projectAndDays(projectId, window)}
           GROUP BY date WITH TOTALS
           ORDER BY date`,
    activeUsers: (projectId, window, now) => sql`SELECT uniqCombinedIfMergeIf(players, day = toDate(${now})) AS dau,
                 uniqCombinedIfMerge(players) AS mau
            FROM rollup_project_days
           WHERE ${projectAndDays(projectId, window)}`,
  },
};

export async function queryDashboard(
  clickhouse: ClickHouseReader,
  q: DashboardQuery,
  source: QuerySource = 'rollups',
): Promise<DashboardMetrics> {
  const now = q.now ?? new Date();
  const query = DASHBOARD_SQL[source];
  const [series, kpis] = await Promise.all([
    clickhouse.rowsWithTotals<{ date: string; events: number; players: number; sessions: number }>(
      query.daily(q.projectId, lastDays(q.days, now)),
    ),
    clickhouse.rows<{ dau: number; mau: number }>(query.activeUsers(q.projectId, lastDays(30, now), now)),
  ]);
  const daily = series.data.map((d) => ({
    date: d.date,
    events: Number(d.events),
    players: Number(d.players),
    sessions: Number(d.sessions),
  }));
  const dau = Number(kpis[0]?.dau ?? 0);
  const mau = Number(kpis[0]?.mau ?? 0);
  const totals = daily.length > 0 ? series.totals : undefined;
  return {
    dau,
    mau,
    players: Number(totals?.players ?? 0),
    sessions: Number(totals?.sessions ?? 0),
    events: Number(totals?.events ?? 0),
    avgDau: daily.length > 0 ? daily.reduce((s, d) => s + d.players, 0) / daily.length : 0,
    stickiness: mau > 0 ? dau / mau : 0,
    daily,
  };
}
