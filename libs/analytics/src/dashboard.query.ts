import {
  distinctPlayersSql,
  distinctSessionsSql,
  MERGED_SESSIONS_SQL,
  mergedPlayersSql,
  sql,
  type ClickHouseReader,
  type RowsWithTotals,
  type SqlFragment,
} from '@framedeck/clickhouse';
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

/**
 * Distinct players and sessions at the precision of the day sketches (clickhouse/023) and of the
 * unique-player insights (distinct-counts.ts), on both sources, so a day's players here equal the
 * insights' unique players by day.
 */
const PLAYERS = distinctPlayersSql();

type DayRow = { date: string; events: number; players: number; sessions: number };
type DailySeries = { data: DayRow[]; totals: DayRow | undefined };

/**
 * Per-day counts and the DAU/MAU pair, from events (the plain query) or from the rollups:
 * event counts from rollup_project_days (016, exact once per batch), players and sessions from
 * rollup_day_sketches (023), whose states merge into the very state one pass over the events
 * builds, so both sources give the same numbers.
 */
const DASHBOARD: Record<
  QuerySource,
  {
    daily: (clickhouse: ClickHouseReader, projectId: string, window: TimeWindow) => Promise<DailySeries>;
    activeUsers: (projectId: string, window: TimeWindow, now: Date) => SqlFragment;
  }
> = {
  events: {
    daily: (clickhouse, projectId, window) =>
      clickhouse.rowsWithTotals<DayRow>(sql`SELECT toString(toDate(timestamp)) AS date, count() AS events,
                 ${PLAYERS} AS players, ${distinctSessionsSql()} AS sessions
            FROM events
           WHERE ${projectAndWindow(projectId, window)}
           GROUP BY date WITH TOTALS
           ORDER BY date`),
    activeUsers: (
      projectId,
      window,
      now,
    ) => sql`SELECT ${distinctPlayersSql(sql`toDate(timestamp) = toDate(${now})`)} AS dau,
                 ${PLAYERS} AS mau
            FROM events
           WHERE ${projectAndWindow(projectId, window)}`,
  },
  rollups: {
    daily: async (clickhouse, projectId, window) => {
      const [counts, sketches] = await Promise.all([
        clickhouse.rowsWithTotals<Pick<DayRow, 'date' | 'events'>>(sql`SELECT toString(day) AS date,
                 countMerge(events) AS events
            FROM rollup_project_days
           WHERE ${projectAndDays(projectId, window)}
           GROUP BY date WITH TOTALS
           ORDER BY date`),
        // A day's sessions are in one of the two columns (023); over several days the two
        // parts are disjoint days, added.
        clickhouse.rowsWithTotals<Omit<DayRow, 'events'>>(sql`SELECT toString(day) AS date,
                 ${mergedPlayersSql()} AS players,
                 ${MERGED_SESSIONS_SQL} + uniqCombinedMerge(sessions_before_sketches) AS sessions
            FROM rollup_day_sketches
           WHERE ${projectAndDays(projectId, window)}
           GROUP BY date WITH TOTALS
           ORDER BY date`),
      ]);
      return joinByDate(counts, sketches);
    },
    activeUsers: (projectId, window, now) => sql`SELECT ${mergedPlayersSql(sql`day = toDate(${now})`)} AS dau,
                 ${mergedPlayersSql()} AS mau
            FROM rollup_day_sketches
           WHERE ${projectAndDays(projectId, window)}`,
  },
};

/**
 * The days of either series, oldest first, with zeros where one has no row for the day: the
 * sketches are written with the events, the counts with the rollup insert that follows it.
 */
function joinByDate(
  counts: RowsWithTotals<Pick<DayRow, 'date' | 'events'>>,
  sketches: RowsWithTotals<Omit<DayRow, 'events'>>,
): DailySeries {
  const days = new Map<string, DayRow>();
  const day = (date: string) => days.get(date) ?? { date, events: 0, players: 0, sessions: 0 };
  for (const r of counts.data) days.set(r.date, { ...day(r.date), events: r.events });
  for (const r of sketches.data) days.set(r.date, { ...day(r.date), players: r.players, sessions: r.sessions });
  const data = [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
  const totals =
    data.length > 0
      ? {
          date: '',
          events: counts.totals?.events ?? 0,
          players: sketches.totals?.players ?? 0,
          sessions: sketches.totals?.sessions ?? 0,
        }
      : undefined;
  return { data, totals };
}

export async function queryDashboard(
  clickhouse: ClickHouseReader,
  q: DashboardQuery,
  source: QuerySource = 'rollups',
): Promise<DashboardMetrics> {
  const now = q.now ?? new Date();
  const query = DASHBOARD[source];
  const [series, kpis] = await Promise.all([
    query.daily(clickhouse, q.projectId, lastDays(q.days, now)),
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
