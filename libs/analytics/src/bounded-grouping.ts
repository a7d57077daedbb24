import { raw, type SqlFragment } from '@framedeck/clickhouse';

/**
 * The SETTINGS clause of a query that groups into few keys, each with many aggregates: heatmap
 * cells, builds by map. It keeps ClickHouse from switching the GROUP BY to two-level on memory.
 *
 * Why: ClickHouse makes an aggregation two-level (256 buckets, merged by a thread pool) when the
 * query's memory passes `group_by_two_level_threshold_bytes` (100 MB), and 18.16 counts in that
 * memory the read buffers of every column, part and thread. A builds comparison over 1,138
 * rollup rows held in 12 small parts (as live ingestion leaves a table between merges) used
 * 142 MB, crossed the threshold in 8 to 16 of 30 runs, depending on when each thread checked,
 * and then took ~130 ms instead of ~34 ms (direct SQL, docs/performance.md). Here
 * the number of keys decides (`group_by_two_level_threshold`, 100,000 keys, still applies).
 * Not for per-player grouping (funnels, retention): their states are large, and there the
 * memory rule pays (a 100 M funnel: 0.69 s with it, 0.83 s without).
 */
export const BOUNDED_GROUPING: SqlFragment = raw('SETTINGS group_by_two_level_threshold_bytes = 0');
