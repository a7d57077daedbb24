import type { ClickHouseClient } from '@clickhouse/client';
import type { ValueBinding } from './sql.js';

/** One query's work split into `count` concurrent queries, each on `threadsEach` threads (the server's default when absent). */
export type QuerySlices = { count: number; threadsEach?: number };

/**
 * What the server FrameDeck talks to can do. Both supported generations run the same
 * application SQL; the few differences are decided here, from the server's own version,
 * so that pointing FrameDeck at another server needs no setting:
 *  - legacy (18.16, Debian's package): no query parameters; LowCardinality columns need
 *    `allow_experimental_low_cardinality_type=1` (a setting newer servers no longer know);
 *  - modern (≥ 20, tested on 26.x): query parameters, SQL-driven users, grants, row policies.
 */
export type ServerEngine = {
  /** As the server reports it, e.g. "18.16.1" or "26.7.3.1". */
  version: string;
  major: number;
  generation: 'legacy' | 'modern';
  /** How values are sent with SELECTs (DDL always carries literals). */
  valueBinding: ValueBinding;
  /** Settings every DDL statement needs on this server. */
  ddlSettings: Readonly<Record<string, number>>;
  /**
   * Settings of the consumer's rollup_input inserts (rollups.writer.ts), which reach its views'
   * inserts. Modern servers merge each block a view writes into a Summing/AggregatingMergeTree
   * by its sorting key before writing the part (`optimize_on_insert`, on by default; 18.16 has no
   * such step). The views' rows are already grouped and every reader sums or merges them, so
   * that pass only costs: off, 200,000 sparse events took 9.0–10.0 server CPU seconds on 26.7
   * against 14.0–16.6 with it (docs/performance.md).
   */
  rollupInsertSettings: Readonly<Record<string, number>>;
  /**
   * Settings of a mutation (ALTER … DELETE), so that the statement returns once the server has
   * recorded it and the rewrite runs in the background, followed in system.mutations (the erasure
   * sweep polls it). 18.16 always works so and knows no such setting. Modern servers wait for the
   * rewrite when `mutations_sync` is 1: clickhouse-server defaults it to 0, but the modern engine
   * here (clickhouse-local) defaults it to 1, and a studio's profile may set it. Waiting, one
   * sweep took 7–9 s per table on the test database after the whole suite (the five tables one
   * after the other, while the API's sweep loop waited), against under 0.1 s to record.
   */
  mutationSettings: Readonly<Record<string, number>>;
  /**
   * How a funnel is counted: in `count` parts at once, each the entities whose key hash falls in
   * its range (its bounds, then its exact count: libs/analytics funnels.query.ts), each query on
   * `threadsEach` threads (the server's own number when absent).
   *
   * On 18.16 one funnel query shares its threads' work poorly. Bounds query at 100 M events,
   * two cores, direct SQL:
   *  - first machine (p50 over HTTP): whole 564–815 ms; two halves at once, two threads each,
   *    376–394; in a later pair of runs, wall time of both halves, one thread each 527–560
   *    against 594–701 for two;
   *  - second machine (wall time of both halves sent at once, median of 9): whole 267–270; two
   *    threads each 298–321 (slower); one thread each 235–263.
   * So 18.16 counts in two halves and gives each half its share of the server's threads (one
   * on two cores), never more threads in all than one query would use. 26.7 uses both cores on
   * one query and counts whole: there halves were slower on both machines (whole 191–210, one
   * thread each 240–246, two each 241–250). Measured on two cores (docs/performance.md,
   * "thirteenth" and "fourteenth run"); the versions between go with their generation.
   */
  funnelSlices: QuerySlices;
  /**
   * How a large heatmap (libs/analytics heatmap.query.ts, BANDED_HEATMAP_CELLS) is counted: in
   * `count` bands of its rows at once, each query on `threadsEach` threads. Its cost is the
   * cells' aggregation and their frame-time quantiles, which one query merges and finishes on one
   * thread; two bands at once finish on two. Measured on the bench's 10 M events, two cores,
   * direct SQL over HTTP, p50 of 12–40 alternating runs (docs/performance.md, twenty-eighth run):
   *  - 18.16: 10-unit Events, 30 days (10,000 cells) 68–87 → 57–74 ms; 5-unit Performance, 7 days
   *    (40,000 cells) 414–422 → 242–245; 5-unit Events, 30 days 198 → 132;
   *  - 26.7: 10-unit Events 109 → 100; 5-unit Performance 420 → 263;
   *  - two bands on every thread each: slower than one thread each on 18.16 (67–82 and 250–273
   *    ms), about as fast on 26.7 (96 and 274); four bands slower than two on both.
   * Both generations count in two bands, never on more threads in all than one query would use.
   */
  heatmapSlices: QuerySlices;
  /** CREATE USER / GRANT / ROW POLICY and views with SQL SECURITY DEFINER (the sandbox's server-side wall). */
  accessControl: boolean;
};

/**
 * `serverThreads`: the server's max_threads for FrameDeck's user (ServerEngineProbe), where
 * known; without it each slice runs on the server's default.
 */
export function engineFromVersion(version: string, serverThreads?: number): ServerEngine {
  const major = Number.parseInt(version.split('.')[0] ?? '', 10);
  if (!Number.isInteger(major)) throw new Error(`unexpected ClickHouse version: ${JSON.stringify(version)}`);
  const legacy = major < 20;
  return {
    version,
    major,
    generation: legacy ? 'legacy' : 'modern',
    valueBinding: legacy ? 'literals' : 'parameters',
    ddlSettings: major < 19 ? { allow_experimental_low_cardinality_type: 1 } : {},
    rollupInsertSettings: major >= 21 ? { optimize_on_insert: 0 } : {},
    mutationSettings: legacy ? {} : { mutations_sync: 0 },
    funnelSlices: legacy ? shareThreads(2, serverThreads) : { count: 1 },
    heatmapSlices: shareThreads(2, serverThreads),
    // SQL SECURITY DEFINER views arrived in 24.2; older modern servers keep the parser as the only wall.
    accessControl: major >= 25 || (major === 24 && Number.parseInt(version.split('.')[1] ?? '0', 10) >= 8),
  };
}

/** `count` slices, each with an equal share of the server's threads (at least one). */
function shareThreads(count: number, serverThreads: number | undefined): QuerySlices {
  if (serverThreads === undefined) return { count };
  return { count, threadsEach: Math.max(1, Math.floor(serverThreads / count)) };
}

/**
 * max_threads as system.settings shows it: "2" on 18.16, "auto(2)" on modern servers; undefined
 * when it reads neither way.
 */
export function threadsFromSetting(value: string | undefined): number | undefined {
  const threads = Number(value?.match(/\d+/)?.[0]);
  return Number.isInteger(threads) && threads > 0 ? threads : undefined;
}

/** Asks the server its version and thread count once per client; a failed look-up is not remembered. */
export class ServerEngineProbe {
  private pending: Promise<ServerEngine> | undefined;

  constructor(private readonly client: ClickHouseClient) {}

  get(): Promise<ServerEngine> {
    if (!this.pending) {
      this.pending = this.client
        .query({
          // max_threads as this user's profile and the server's cores make it.
          query: `SELECT version() AS version, (SELECT value FROM system.settings WHERE name = 'max_threads') AS max_threads`,
          format: 'JSONEachRow',
        })
        .then((result) => result.json<{ version: string; max_threads?: string }>())
        .then(([row]) => engineFromVersion(row?.version ?? '', threadsFromSetting(row?.max_threads)));
      this.pending.catch(() => (this.pending = undefined));
    }
    return this.pending;
  }
}
