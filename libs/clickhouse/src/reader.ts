import type { Readable } from 'node:stream';
import type { ClickHouseConfig } from '@framedeck/config';
import { openServiceConnection, type ClickHouseClient } from './connection.js';
import { retryRead } from './retry.js';
import { ServerEngineProbe, type ServerEngine } from './server-engine.js';
import { renderSql, sql, type SqlFragment } from './sql.js';

type Settings = Readonly<Record<string, string | number>>;

/**
 * Settings of every read.
 * - readonly=2: the server refuses any write, DDL or mutation sent through a reader (least
 *   privilege without a second account), while settings like the one below stay allowed.
 * - JSON numbers for 64-bit integers: ClickHouse quotes them by default (so JavaScript cannot
 *   lose precision); our counts stay far below 2^53, and callers want numbers.
 * - The uncompressed cache (`use_uncompressed_cache`, off in the server's default profile): the
 *   analytics read the same small rollup ranges again and again, and a range spread over many
 *   parts costs a compressed block per column and part to decompress, most of it rows of other
 *   maps or names. Kept decompressed (infra/clickhouse/config.xml sizes the cache), such a read
 *   costs less: the bench's heatmaps 10–25 % in direct SQL, at 10 M events as at 100 M. ClickHouse
 *   skips the cache for reads over `merge_tree_max_rows_to_use_cache` rows (1,048,576), so scans
 *   of raw events do not evict the rollups. Measured: docs/performance.md, fifteenth run.
 */
export const READ_SETTINGS: Settings = {
  readonly: 2,
  output_format_json_quote_64bit_integers: 0,
  use_uncompressed_cache: 1,
};

export type RowsWithTotals<T> = { data: T[]; totals: T | undefined; rowsBeforeLimit: number };

/**
 * FrameDeck's read access to ClickHouse: typed rows from a `sql` fragment, values bound the
 * way the server supports (query parameters on modern servers, literals on 18.16), one retry
 * when a pooled connection broke. The API's analytics and the alert evaluator hold a reader.
 */
export class ClickHouseReader {
  private readonly probe: ServerEngineProbe;

  constructor(
    protected readonly client: ClickHouseClient,
    private readonly settings: Settings = READ_SETTINGS,
  ) {
    this.probe = new ServerEngineProbe(client);
  }

  /** What the server is (asked once). */
  engine(): Promise<ServerEngine> {
    return this.probe.get();
  }

  /** One SELECT, its rows as objects. */
  rows<T>(query: SqlFragment): Promise<T[]> {
    return retryRead(async () => {
      const result = await this.client.query({ ...(await this.request(query)), format: 'JSONEachRow' });
      return result.json<T>();
    });
  }

  /** One SELECT in the JSON format, which also carries the WITH TOTALS row and the row count before LIMIT. */
  async rowsWithTotals<T>(query: SqlFragment): Promise<RowsWithTotals<T>> {
    const body = await retryRead(async () => {
      const result = await this.client.query({ ...(await this.request(query)), format: 'JSON' });
      return result.json<T>();
    });
    return {
      data: body.data,
      totals: (body as { totals?: T }).totals,
      rowsBeforeLimit: body.rows_before_limit_at_least ?? body.data.length,
    };
  }

  /**
   * One SELECT's rows as ClickHouse writes them in JSONEachRow (a JSON object per line), never
   * parsed here: for answers that go to an HTTP client unparsed. A 40,000-cell heatmap is 9 MB
   * of JSON; parsing it into objects and serialising them again cost the API 130–170 ms on these
   * two cores (docs/performance.md, sixteenth run). The server finishes the query before it answers
   * (`wait_end_of_query`), so a failing query is an error here, never a cut answer, and a broken
   * pooled connection is retried like any read.
   */
  jsonLines(query: SqlFragment): Promise<Buffer> {
    return retryRead(async () => {
      const request = await this.request(sql`${query} FORMAT JSONEachRow`, { wait_end_of_query: 1 });
      const chunks: Buffer[] = [];
      for await (const chunk of (await this.client.exec(request)).stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    });
  }

  /**
   * The raw bytes of a query that names its own output FORMAT, never parsed here: memory stays
   * bounded whatever the size, and a consumer that stops reading stops the download (TCP
   * backpressure). Not retried: bytes may already have reached the caller.
   */
  async stream(query: SqlFragment): Promise<Readable> {
    const result = await this.client.exec(await this.request(query));
    return result.stream;
  }

  /** Whether the server answers (readiness probes). */
  async ping(): Promise<boolean> {
    return (await this.client.ping()).success;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** The query as this server takes it, with the reader's (or writer's) settings. */
  protected async request(query: SqlFragment, extraSettings: Settings = {}) {
    const engine = await this.engine();
    const rendered = renderSql(query, engine.valueBinding);
    return {
      query: rendered.query,
      query_params: rendered.params,
      clickhouse_settings: { ...this.settings, ...extraSettings },
    };
  }
}

/** A reader on the configured database (or `database`), as the configured service account. */
export function createClickHouseReader(
  config: ClickHouseConfig,
  options: { database?: string } = {},
): ClickHouseReader {
  return new ClickHouseReader(openServiceConnection(config, options.database));
}
