import { raw, sql, type ClickHouseClient, type SqlFragment } from '@framedeck/clickhouse';
import { selectWithTotals } from './clickhouse-rows.js';
import { lastDays, projectAndWindow } from './time-window.js';

/** Allowed values, defaults: the spec's insights parameter table. */
export const INSIGHT_METRICS = ['count', 'unique_players'] as const;
export const INSIGHT_GROUP_BY = ['day', 'week', 'month', 'event_name', 'map_id', 'platform', 'build_id'] as const;
export const INSIGHT_DAYS = [7, 14, 30, 90] as const;
export const INSIGHT_LIMITS = [10, 20, 50] as const;
export const INSIGHT_DEFAULTS = { days: 30, limit: 10 } as const;

export type InsightMetric = (typeof INSIGHT_METRICS)[number];
export type InsightGroupBy = (typeof INSIGHT_GROUP_BY)[number];

export type InsightsQuery = {
  projectId: string;
  metric: InsightMetric;
  groupBy: InsightGroupBy;
  days: number;
  limit: number;
  eventName?: string | undefined;
  now?: Date;
};

export type InsightRow = { group: string; value: number };
export type InsightsResult = { rows: InsightRow[]; total: number; distinctGroups: number };

/**
 * Trusted expressions chosen by the validated enum, never by user text.
 * NOTE: time groups stay Dates while aggregating (2 bytes a row instead of a string built for
 * each of millions of rows); JSON renders them as YYYY-MM-DD and months are cut to YYYY-MM after.
 */
const GROUP_EXPRESSIONS: Record<InsightGroupBy, SqlFragment> = {
  day: raw('toDate(timestamp)'),
  week: raw('toMonday(timestamp)'),
  month: raw('toStartOfMonth(timestamp)'),
  event_name: raw('event_name'),
  map_id: raw('map_id'),
  platform: raw('platform'),
  build_id: raw('build_id'),
};

const METRIC_EXPRESSIONS: Record<InsightMetric, SqlFragment> = {
  count: raw('count()'),
  // Events without a player id are not players. NOTE: uniqCombined is exact for small sets and
  // a HyperLogLog beyond (typically < 1 % error); measured 1.7× faster than uniq and 3–6×
  // faster than uniqExact on 10 M events here.
  unique_players: raw("uniqCombinedIf(player_id, player_id != '')"),
};

export function isTimeGrouping(groupBy: InsightGroupBy): boolean {
  return groupBy === 'day' || groupBy === 'week' || groupBy === 'month';
}

/**
 * One aggregation, grouped. `total` is the metric over the whole filtered range (the sum of
 * all groups for count; the distinct players across all groups for unique_players, so a
 * player active on two days counts once), `distinctGroups` counts every group with data
 * before the limit. Time groupings return the most recent `limit` periods, oldest first;
 * other groupings the `limit` largest groups, largest first (ties by name). Groups without
 * data are absent (no zero filling); days, weeks and months are UTC (weeks start on Monday).
 */
export async function queryInsights(clickhouse: ClickHouseClient, q: InsightsQuery): Promise<InsightsResult> {
  const byTime = isTimeGrouping(q.groupBy);
  const nameFilter = q.eventName !== undefined ? sql` AND event_name = ${q.eventName}` : sql``;
  const order = byTime ? raw('g DESC') : raw('v DESC, g ASC');
  const result = await selectWithTotals<{ g: string; v: number }>(
    clickhouse,
    sql`SELECT ${GROUP_EXPRESSIONS[q.groupBy]} AS g, ${METRIC_EXPRESSIONS[q.metric]} AS v
          FROM events
         WHERE ${projectAndWindow(q.projectId, lastDays(q.days, q.now))}${nameFilter}
         GROUP BY g WITH TOTALS
         ORDER BY ${order}
         LIMIT ${q.limit}`,
  );
  const rows = result.data.map((r) => ({ group: q.groupBy === 'month' ? r.g.slice(0, 7) : r.g, value: Number(r.v) }));
  if (byTime) rows.reverse();
  return {
    rows,
    total: result.data.length === 0 ? 0 : Number(result.totals?.v ?? 0),
    distinctGroups: result.data.length === 0 ? 0 : result.rowsBeforeLimit,
  };
}
