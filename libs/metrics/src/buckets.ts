/** Histogram buckets, in seconds, by what is being timed. */

/** HTTP requests answered by the API: a few ms (cached) to the SQL sandbox's 15 s limit. */
export const REQUEST_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One Kafka produce round trip with acks = all. */
export const PRODUCE_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** One ClickHouse insert of a block (up to 100,000 rows), retries included. */
export const INSERT_SECONDS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
