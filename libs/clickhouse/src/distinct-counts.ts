import { raw, sql, type SqlFragment } from './sql.js';

/**
 * The precision (2^13 cells) of every distinct count of players and sessions that the insights,
 * the dashboard and the project status report, on every source: the sketch rollups are built
 * with it (clickhouse/022, 023 and 025; a unit test holds their files to it), and the plain queries over
 * events and the player_activity set compute with it, so every source gives the answer one pass
 * over the events gives. Exact up to 512 distinct values, then HyperLogLog with a standard error
 * of ≈ 1.15 % (measured mean |error| 0.8 % at 50,000 players, docs/analytics.md). Larger
 * precisions keep a 10 M-event project's days as exact sets, whose merges cost more than these
 * sketches (022's header).
 */
export const SKETCH_PRECISION = 13;

const PRECISION: SqlFragment = raw(String(SKETCH_PRECISION));

/**
 * The distinct counts every query reports, one pass over rows (events, player_activity) or a
 * merge of the sketch rollups' `players` and `sessions` states, each narrowed to the rows where
 * `condition` holds when given. Events without a player id are not players.
 */
export function distinctPlayersSql(condition?: SqlFragment): SqlFragment {
  return sql`uniqCombinedIf(${PRECISION})(player_id, player_id != ''${condition ? sql` AND ${condition}` : sql``})`;
}

export function distinctSessionsSql(condition?: SqlFragment): SqlFragment {
  return condition
    ? sql`uniqCombinedIf(${PRECISION})(session_id, ${condition})`
    : sql`uniqCombined(${PRECISION})(session_id)`;
}

export function mergedPlayersSql(condition?: SqlFragment): SqlFragment {
  return condition
    ? sql`uniqCombinedIfMergeIf(${PRECISION})(players, ${condition})`
    : sql`uniqCombinedIfMerge(${PRECISION})(players)`;
}

export const MERGED_SESSIONS_SQL: SqlFragment = sql`uniqCombinedMerge(${PRECISION})(sessions)`;
