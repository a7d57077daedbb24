import {
  distinctPlayersSql,
  mergedPlayersSql,
  raw,
  sql,
  type ClickHouseReader,
  type SqlFragment,
} from '@framedeck/clickhouse';
import { dimensionConditions, hasDimensionFilter, type DimensionFilter } from './dimension-filter.js';
import type { QuerySource } from './query-source.js';
import { lastDays, projectAndDays, projectAndWindow } from './time-window.js';

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
} & DimensionFilter;

export type InsightRow = { group: string; value: number };
export type InsightsResult = { rows: InsightRow[]; total: number; distinctGroups: number };

/** Groupings by a string column (the others are time periods). */
type NameGroupBy = Exclude<InsightGroupBy, 'day' | 'week' | 'month'>;

export function isTimeGrouping(groupBy: InsightGroupBy): groupBy is Exclude<InsightGroupBy, NameGroupBy> {
  return groupBy === 'day' || groupBy === 'week' || groupBy === 'month';
}

/**
 * Trusted expressions chosen by the validated enum, never by user text, over the events
 * table (`timestamp`) and over the rollups keyed by `day` (player_activity, rollup_daily_counts).
 * NOTE: time groups stay Dates while aggregating (2 bytes a row instead of a string built for
 * each of millions of rows); JSON renders them as YYYY-MM-DD and months are cut to YYYY-MM after.
 */
const GROUP_ON_EVENTS: Record<InsightGroupBy, SqlFragment> = {
  day: raw('toDate(timestamp)'),
  week: raw('toMonday(timestamp)'),
  month: raw('toStartOfMonth(timestamp)'),
  event_name: raw('event_name'),
  map_id: raw('map_id'),
  platform: raw('platform'),
  build_id: raw('build_id'),
};
const GROUP_ON_ROLLUP: Record<InsightGroupBy, SqlFragment> = {
  ...GROUP_ON_EVENTS,
  day: raw('day'),
  week: raw('toMonday(day)'),
  month: raw('toStartOfMonth(day)'),
};

/** Every source counts players alike (distinct-counts.ts). */
const UNIQUE_PLAYERS = distinctPlayersSql();
const UNIQUE_PLAYERS_MERGED = mergedPlayersSql();

type Selected = { g: string; v: number };

/**
 * One aggregation, grouped. `total` is the metric over the whole filtered range (the sum of
 * all groups for count; the distinct players across all groups for unique_players, so a
 * player active on two days counts once), `distinctGroups` counts every group with data
 * before the limit. Time groupings return the most recent `limit` periods, oldest first;
 * other groupings the `limit` largest groups, largest first (ties by name). Groups without
 * data are absent (no zero filling); days, weeks and months are UTC (weeks start on Monday).
 *
 * How the rollups answer exactly what the events would (the range is whole UTC days, see
 * lastDays):
 *  - counts: rollup_daily_counts (clickhouse/007), one row per day and dimension, summed;
 *  - unique players by day, week, month or event name without a platform, build or source
 *    filter: the per-day, per-name sketches (rollup_event_player_sketches, 022), merged;
 *  - other unique players: the player_activity set (004) of those days — except with a source
 *    filter: the set has no source column, so the events answer.
 * Every filter (event name, platform, build, source) applies to each source alike.
 */
export async function queryInsights(
  clickhouse: ClickHouseReader,
  q: InsightsQuery,
  source: QuerySource = 'rollups',
): Promise<InsightsResult> {
  const byTime = isTimeGrouping(q.groupBy);
  const order = byTime ? raw('g DESC') : raw('v DESC, g ASC');
  // The rolling start, computed once for every part of the query.
  const from = lastDays(q.days, q.now).from;
  const result = await clickhouse.rowsWithTotals<Selected>(
    sql`${selectGrouped(q, source, from)} GROUP BY g WITH TOTALS ORDER BY ${order} LIMIT ${q.limit}`,
  );
  const rows = result.data.map((r) => ({ group: q.groupBy === 'month' ? r.g.slice(0, 7) : r.g, value: Number(r.v) }));
  if (byTime) rows.reverse();
  return {
    rows,
    total: result.data.length === 0 ? 0 : Number(result.totals?.v ?? 0),
    distinctGroups: result.data.length === 0 ? 0 : result.rowsBeforeLimit,
  };
}

/** Which query answers: see queryInsights. */
function selectGrouped(q: InsightsQuery, source: QuerySource, from: Date): SqlFragment {
  if (q.metric === 'count') return source === 'rollups' ? countFromRollup(q, from) : eventsQuery(q, from);
  if (source === 'events' || q.source !== undefined) return eventsQuery(q, from);
  return servedBySketches(q) ? uniquePlayersFromSketches(q, from) : uniquePlayersFromActivity(q, from);
}

/** The sketches keep day and event name only: no other grouping, no dimension filter. */
function servedBySketches(q: InsightsQuery): boolean {
  return (isTimeGrouping(q.groupBy) || q.groupBy === 'event_name') && !hasDimensionFilter(q);
}

/** The event-name and dimension conditions, the same on events and on the rollups. */
function nameFilter(q: InsightsQuery): SqlFragment {
  const name = q.eventName !== undefined ? sql` AND event_name = ${q.eventName}` : sql``;
  return sql`${name}${dimensionConditions(q)}`;
}

/** The plain query: every event of the range, grouped (each caller appends GROUP BY g …). */
function eventsQuery(q: InsightsQuery, from: Date): SqlFragment {
  const metric = q.metric === 'count' ? raw('count()') : UNIQUE_PLAYERS;
  return sql`SELECT ${GROUP_ON_EVENTS[q.groupBy]} AS g, ${metric} AS v
    FROM events WHERE ${projectAndWindow(q.projectId, { from })}${nameFilter(q)}`;
}

/** Events per group from the daily counts (clickhouse/007): one row per day and dimension. */
function countFromRollup(q: InsightsQuery, from: Date): SqlFragment {
  return sql`SELECT ${GROUP_ON_ROLLUP[q.groupBy]} AS g, sum(events) AS v
    FROM rollup_daily_counts WHERE ${projectAndDays(q.projectId, { from })}${nameFilter(q)}`;
}

/** Players per group from the per-day, per-name sketches (clickhouse/022). */
function uniquePlayersFromSketches(q: InsightsQuery, from: Date): SqlFragment {
  return sql`SELECT ${GROUP_ON_ROLLUP[q.groupBy]} AS g, ${UNIQUE_PLAYERS_MERGED} AS v
    FROM rollup_event_player_sketches WHERE ${projectAndDays(q.projectId, { from })}${nameFilter(q)}`;
}

/** Players per group from the player_activity set (clickhouse/004). */
function uniquePlayersFromActivity(q: InsightsQuery, from: Date): SqlFragment {
  return sql`SELECT ${GROUP_ON_ROLLUP[q.groupBy]} AS g, ${UNIQUE_PLAYERS} AS v
    FROM player_activity WHERE ${projectAndDays(q.projectId, { from })}${nameFilter(q)}`;
}
