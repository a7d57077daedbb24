import { sql, type ClickHouseReader } from '@framedeck/clickhouse';
import { lastDays, projectAndWindow } from './time-window.js';

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

export async function queryDashboard(clickhouse: ClickHouseReader, q: DashboardQuery): Promise<DashboardMetrics> {
  const now = q.now ?? new Date();
  const [series, kpis] = await Promise.all([
    clickhouse.rowsWithTotals<{
      date: string;
      events: number;
      players: number;
      sessions: number;
    }>(sql`SELECT toString(toDate(timestamp)) AS date, count() AS events, ${PLAYERS} AS players,
                 uniqCombined(session_id) AS sessions
            FROM events
           WHERE ${projectAndWindow(q.projectId, lastDays(q.days, now))}
           GROUP BY date WITH TOTALS
           ORDER BY date`),
    clickhouse.rows<{
      dau: number;
      mau: number;
    }>(sql`SELECT uniqCombinedIf(player_id, player_id != '' AND toDate(timestamp) = toDate(${now})) AS dau, ${PLAYERS} AS mau
            FROM events
           WHERE ${projectAndWindow(q.projectId, lastDays(30, now))}`),
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
