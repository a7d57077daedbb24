import { raw, type SqlFragment } from '@framedeck/clickhouse';

/**
 * The precision (2^13 cells) of every distinct count of players and sessions that the insights
 * and the dashboard report, on every source: the sketch rollups are built with it
 * (clickhouse/022 and 023; a unit test holds their files to it), and the plain queries over
 * events and the player_activity set compute with it, so every source gives the answer one pass
 * over the events gives. Exact up to 512 distinct values, then HyperLogLog with a standard error
 * of ≈ 1.15 % (measured mean |error| 0.8 % at 50,000 players, docs/analytics.md). Larger
 * precisions keep a 10 M-event project's days as exact sets, whose merges cost more than these
 * sketches (022's header).
 */
export const SKETCH_PRECISION = 13;

/** The precision as the parameter of a uniqCombined function in SQL. */
export const SKETCH_PARAMETER: SqlFragment = raw(String(SKETCH_PRECISION));
