import { raw, sql, type ClickHouseReader, type SqlFragment } from '@framedeck/clickhouse';
import { dimensionConditions, hasDimensionFilter, type DimensionFilter } from './dimension-filter.js';
import type { QuerySource } from './query-source.js';
import { lastDays } from './time-window.js';

export const RETENTION_PERIODS = ['day', 'week'] as const;
export const RETENTION_DAYS = [7, 14, 30, 90] as const;
/** Largest k (N = 0..k) per period unit. */
export const RETENTION_MAX_K = { day: 30, week: 12 } as const;
export const RETENTION_DEFAULTS = { period: 'day', days: 30, k: { day: 7, week: 4 } } as const;

export type RetentionPeriod = (typeof RETENTION_PERIODS)[number];

export type RetentionQuery = {
  projectId: string;
  period: RetentionPeriod;
  /** Cohorts of players first seen on or after the UTC day `days` × 24 h before now. */
  days: number;
  /** N = 0..k. */
  k: number;
  now?: Date;
} & DimensionFilter;

export type RetentionCohort = {
  /** First day of the cohort's period (YYYY-MM-DD, UTC; weeks start on Monday). */
  cohort: string;
  /** Players first seen in this period. */
  size: number;
  /** retained[N]: cohort players active N periods after their first period; null when period N has not begun yet. */
  retained: Array<number | null>;
  /** retained[N] / size. */
  rates: Array<number | null>;
};

export type RetentionResult = { period: RetentionPeriod; k: number; cohorts: RetentionCohort[] };

/** Period numbers: days or Monday-based weeks since a fixed origin (UTC server time). */
const PERIOD_NUMBER: Record<RetentionPeriod, SqlFragment> = {
  day: raw('toRelativeDayNum(day)'),
  week: raw('toRelativeWeekNum(day)'),
};
const PERIOD_START: Record<RetentionPeriod, SqlFragment> = {
  day: raw('toString(first_day)'),
  week: raw('toString(toMonday(first_day))'),
};

/**
 * Where (player, active day) pairs come from, for the rollups: the player_days set
 * (clickhouse/003) without a filter; the player_activity set (004), which keeps each day's
 * platforms and builds, with a platform or build filter; the events with a source filter (no
 * set keeps sources). The events are also the reference the sets are tested against.
 */
export function retentionTable(q: DimensionFilter, source: QuerySource): 'player_days' | 'player_activity' | 'events' {
  if (source === 'events' || q.source !== undefined) return 'events';
  return hasDimensionFilter(q) ? 'player_activity' : 'player_days';
}

function playerDays(q: RetentionQuery, source: QuerySource): SqlFragment {
  const project = sql`project_id = toUUID(${q.projectId})`;
  switch (retentionTable(q, source)) {
    case 'player_days':
      return sql`SELECT player_id, day FROM player_days WHERE ${project}`;
    case 'player_activity':
      return sql`SELECT player_id, day FROM player_activity WHERE ${project} AND player_id != ''${dimensionConditions(q)}`;
    case 'events':
      return sql`SELECT player_id, toDate(timestamp) AS day FROM events
                  WHERE ${project} AND player_id != ''${dimensionConditions(q)}`;
  }
}

/**
 * Player retention by cohort. A player's cohort is the period of their first event in the
 * project's whole stored history (not just in the range: a veteran is not a new player), and
 * they count as retained at N when they have any event N periods later. Players are the
 * non-empty player_id values. With a platform, build or source filter only those events
 * exist, for first-seen too: the Switch cohorts are players by their first Switch event.
 * Reads a set rollup (retentionTable; duplicates and FINAL do not matter to a set).
 */
export async function queryRetention(
  clickhouse: ClickHouseReader,
  q: RetentionQuery,
  source: QuerySource = 'rollups',
): Promise<RetentionResult> {
  const now = q.now ?? new Date();
  const from = lastDays(q.days, now).from;
  const period = PERIOD_NUMBER[q.period];
  const rows = await clickhouse.rows<{
    cohort: string;
    cohort_num: number;
    n: number;
    players: number;
  }>(sql`SELECT ${PERIOD_START[q.period]} AS cohort, first AS cohort_num, p - first AS n, count() AS players
          FROM (
            SELECT player_id, min(${period}) AS first, groupUniqArray(${period}) AS ps, min(day) AS first_day
              FROM (${playerDays(q, source)})
             GROUP BY player_id
            HAVING first_day >= toDate(${from})
          )
          ARRAY JOIN ps AS p
         WHERE p - first <= ${q.k}
         GROUP BY cohort, cohort_num, n
         ORDER BY cohort, n`);
  const nowNum = await currentPeriod(clickhouse, q.period, now);
  return { period: q.period, k: q.k, cohorts: toCohorts(rows, q.k, nowNum) };
}

async function currentPeriod(clickhouse: ClickHouseReader, period: RetentionPeriod, now: Date): Promise<number> {
  const fn = period === 'day' ? raw('toRelativeDayNum') : raw('toRelativeWeekNum');
  const [row] = await clickhouse.rows<{ p: number }>(sql`SELECT ${fn}(${now}) AS p`);
  return Number(row!.p);
}

/** Shapes (cohort, N, players) rows into one entry per cohort; N = 0 is the cohort size. */
export function toCohorts(
  rows: ReadonlyArray<{ cohort: string; cohort_num: number; n: number; players: number }>,
  k: number,
  currentPeriodNum: number,
): RetentionCohort[] {
  const byCohort = new Map<string, { num: number; counts: Map<number, number> }>();
  for (const r of rows) {
    const entry = byCohort.get(r.cohort) ?? { num: Number(r.cohort_num), counts: new Map<number, number>() };
    entry.counts.set(Number(r.n), Number(r.players));
    byCohort.set(r.cohort, entry);
  }
  return [...byCohort.entries()].map(([cohort, { num, counts }]) => {
    const size = counts.get(0) ?? 0;
    const retained = Array.from({ length: k + 1 }, (_, n) =>
      num + n > currentPeriodNum ? null : (counts.get(n) ?? 0),
    );
    return { cohort, size, retained, rates: retained.map((v) => (v === null || size === 0 ? null : v / size)) };
  });
}
