import type { ClickHouseClient } from '@clickhouse/client';
import type { ValueBinding } from './sql.js';

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
   * How many parts a funnel is counted in at once, each the entities whose key hash falls in its
   * range, its bounds and then its exact count (libs/analytics funnels.query.ts). On 18.16 one
   * funnel query keeps two cores barely busier than one (the bounds at 100 M events: 650 ms on
   * two threads, 605–650 on one); two halves at once took the bounds from p50 564–815 ms to
   * 376–394 and the exact count of the open players from 145–151 to 102–108 (docs/performance.md,
   * "thirteenth run"). 26.7 uses both cores on one query: there the halves' bounds were slower
   * (p50 338–409 against 294–345), so modern servers count a funnel whole. Measured on two cores,
   * on 18.16 and 26.7 only: the versions between go with their generation.
   */
  funnelSlices: number;
  /** CREATE USER / GRANT / ROW POLICY and views with SQL SECURITY DEFINER (the sandbox's server-side wall). */
  accessControl: boolean;
};

export function engineFromVersion(version: string): ServerEngine {
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
    funnelSlices: legacy ? 2 : 1,
    // SQL SECURITY DEFINER views arrived in 24.2; older modern servers keep the parser as the only wall.
    accessControl: major >= 25 || (major === 24 && Number.parseInt(version.split('.')[1] ?? '0', 10) >= 8),
  };
}

/** Asks the server its version once per client; a failed look-up is not remembered. */
export class ServerEngineProbe {
  private pending: Promise<ServerEngine> | undefined;

  constructor(private readonly client: ClickHouseClient) {}

  get(): Promise<ServerEngine> {
    if (!this.pending) {
      this.pending = this.client
        .query({ query: 'SELECT version() AS version', format: 'JSONEachRow' })
        .then((result) => result.json<{ version: string }>())
        .then(([row]) => engineFromVersion(row?.version ?? ''));
      this.pending.catch(() => (this.pending = undefined));
    }
    return this.pending;
  }
}
