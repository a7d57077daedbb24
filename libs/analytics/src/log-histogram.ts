/**
 * Quantiles from log-bucket histograms: what the rollups keep instead of quantile states
 * (clickhouse/014). Bucket k holds values in [GROWTH^(k − OFFSET), GROWTH^(k − OFFSET + 1)); a
 * quantile is the nearest-rank value's bucket, reported as the bucket's geometric middle, so it
 * is within √GROWTH − 1 (1.98 %) of the nearest-rank value. A rollup row holds one entry per
 * occupied bucket, however many values fell in it, and the plain query over events builds the
 * same histogram: both sources give the same answer.
 */

/** Each bucket's upper edge over its lower one. */
export const HISTOGRAM_GROWTH = 1.04;
/** Values at or below this (in the metric's unit) share bucket 0. */
const SMALLEST_VALUE = 0.0001;
/** −⌊log(SMALLEST_VALUE) / log(GROWTH)⌋: bucket numbers start at 0 (UInt16 columns). */
const BUCKET_OFFSET = 235;

/** The relative error bound of a reported quantile. */
export const HISTOGRAM_RELATIVE_ERROR = Math.sqrt(HISTOGRAM_GROWTH) - 1;

/** The quantiles every rollup-served answer reports, in this order. */
export const REPORTED_QUANTILES = [0.5, 0.95, 0.99] as const;
/** The quantile levels as the parameters of a ClickHouse quantiles function. */
const LEVELS = REPORTED_QUANTILES.join(', ');

/**
 * The bucket of a value, as SQL. clickhouse/014's views contain this exact text (a unit test
 * holds them to it): change both together, and refill the rollups.
 */
export function histogramBucketSql(value: string): string {
  return `toUInt16(floor(log(greatest(toFloat64(${value}), ${SMALLEST_VALUE})) / log(${HISTOGRAM_GROWTH})) + ${BUCKET_OFFSET})`;
}

/** The histogram (buckets, counts) of the values where `condition` holds, over events. */
export function histogramOfValuesSql(value: string, condition: string): string {
  return `sumMapIf([${histogramBucketSql(value)}], [toUInt64(1)], ${condition})`;
}

/** The histogram (buckets, counts) summed over rollup rows, from a `<name>Map` Nested column. */
export function histogramOfRollupSql(nestedColumn: string): string {
  return `sumMap(${nestedColumn}.bucket, ${nestedColumn}.samples)`;
}

/** A bucket number's reported value: the bucket's geometric middle, rounded to 0.001. */
function bucketMiddleSql(bucket: string): string {
  return `round(pow(${HISTOGRAM_GROWTH}, toFloat64(${bucket}) - ${BUCKET_OFFSET} + 0.5), 3)`;
}

/** Each bucket of an array of bucket numbers, as its reported value. */
const bucketMiddlesSql = (buckets: string) => `arrayMap(b -> ${bucketMiddleSql('b')}, ${buckets})`;

/**
 * [p50, p95, p99] of a histogram expression (histogramOf…Sql): for each quantile q, the bucket
 * where the cumulative count first reaches the nearest rank max(1, ⌈q·n⌉), as its geometric
 * middle rounded to 0.001. An empty histogram gives [] entries of NaN; callers report null
 * when they have no samples. For callers that keep the summed histogram too (the builds
 * comparison adds the maps' up); quantiles alone are cheaper with the next two.
 */
export function histogramQuantilesSql(histogram: string): string {
  // arrayFirst over (bucket, running count) pairs, not a subscript of the tuple's element: on a
  // cluster 18.16 re-formats the query for the shards as h.1[…], which its own parser refuses.
  const bucket = `arrayFirst((b, c) -> c >= rank, tupleElement(h, 1), arrayCumSum(tupleElement(h, 2)))`;
  const ranks = `arrayMap(q -> greatest(1, ceil(q * arraySum(tupleElement(h, 2)))), [${LEVELS}])`;
  // A one-element array of the histogram names it h inside the lambdas (no WITH per column on 18.16).
  return `arrayMap(h -> arrayMap(rank -> ${bucketMiddleSql(bucket)}, ${ranks}), [${histogram}])[1]`;
}

/**
 * The same [p50, p95, p99] as histogramQuantilesSql(histogramOfRollupSql(nestedColumn)), without
 * summing the histogram first: quantilesExactWeighted over the rows' (bucket, count) entries
 * takes the first bucket whose running count reaches ⌈q·n⌉, the nearest rank above, and keeps a
 * hash table per group where sumMap keeps an ordered map of generic values. Measured on a
 * 30-day Events heatmap at 100 M events (~21 entries a row): 55 → 35 ms, the same cells.
 * An empty group gives bucket 0's value: callers report null without samples.
 */
export function rollupQuantilesSql(nestedColumn: string): string {
  return bucketMiddlesSql(`quantilesExactWeightedArray(${LEVELS})(${nestedColumn}.bucket, ${nestedColumn}.samples)`);
}

/** rollupQuantilesSql's quantiles of the values where `condition` holds, over events. */
export function valuesQuantilesSql(value: string, condition: string): string {
  return bucketMiddlesSql(
    `quantilesExactWeightedIf(${LEVELS})(${histogramBucketSql(value)}, toUInt64(1), ${condition})`,
  );
}

/**
 * What a quantile whose nearest-rank value is `value` is reported as (its bucket's geometric
 * middle, rounded like the SQL): for tests and for documents quoting the bound.
 */
export function reportedQuantile(value: number): number {
  const bucket = Math.floor(Math.log(Math.max(value, SMALLEST_VALUE)) / Math.log(HISTOGRAM_GROWTH));
  return Math.round(HISTOGRAM_GROWTH ** (bucket + 0.5) * 1000) / 1000;
}
