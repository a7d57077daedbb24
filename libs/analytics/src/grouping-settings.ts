import { raw, type SqlFragment } from '@framedeck/clickhouse';

/**
 * The SETTINGS clause of a query that groups into few keys, each with many aggregates: heatmap
 * cells, builds by map. It keeps ClickHouse from switching the GROUP BY to two-level on memory,
 * and runs the query on `threads` threads when given (a large heatmap counted in bands of its
 * rows at once shares the server's: ServerEngine.heatmapSlices).
 *
 * Why: ClickHouse makes an aggregation two-level (256 buckets, merged by a thread pool) when the
 * query's memory passes `group_by_two_level_threshold_bytes` (100 MB), and 18.16 counts in that
 * memory the read buffers of every column, part and thread. A builds comparison over 1,138
 * rollup rows held in 12 small parts (as live ingestion leaves a table between merges) used
 * 142 MB, crossed the threshold in 8 to 16 of 30 runs, depending on when each thread checked,
 * and then took ~130 ms instead of ~34 ms (direct SQL, docs/performance.md). Here
 * the number of keys decides (`group_by_two_level_threshold`, 100,000 keys, still applies).
 * Not for per-player grouping (funnels, retention): their states are large, and there the
 * memory rule pays (a 100 M funnel: 0.69 s with it, 0.83 s without); funnels add a rule by keys
 * too (perEntityGrouping, below).
 */
export function boundedGrouping(threads?: number): SqlFragment {
  return raw(`SETTINGS group_by_two_level_threshold_bytes = 0${threadShare(threads)}`);
}

/**
 * The SETTINGS clause of a query that groups into one key per player or session, each holding
 * an event list (funnels' windowFunnel): two-level from 1,000 keys on, and on `threads` threads
 * when given (a funnel counted in slices at once shares the server's: ServerEngine.funnelSlices).
 *
 * Why two-level: with a single-level table each thread aggregates its share of the rows, then
 * one thread merges the tables, which for windowFunnel means appending and sorting every
 * player's events again, and converts the results. A two-level table (256 buckets) is merged and
 * converted bucket by bucket on every thread. Measured on the bench's 100 M events (50,000
 * players, direct SQL, median of 7, 2026-11-29): the funnel bounds query 359 → 265 ms, the whole
 * exact funnel 558 → 533. Under 1,000 keys the table stays single-level (nothing to share
 * between threads).
 */
export function perEntityGrouping(threads?: number): SqlFragment {
  return raw(`SETTINGS group_by_two_level_threshold = 1000${threadShare(threads)}`);
}

/** `, max_threads = n` for a query given its share of the server's threads, else nothing. */
function threadShare(threads: number | undefined): string {
  // An integer by type and by check: it goes into the text as it is.
  return threads !== undefined && Number.isInteger(threads) && threads > 0 ? `, max_threads = ${threads}` : '';
}
