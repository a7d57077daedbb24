import { Readable } from 'node:stream';
import type { ClickHouseSettings } from '@clickhouse/client';
import type { ClickHouseConfig } from '@framedeck/config';
import { clusterTarget, type ClusterTarget } from './cluster-migrations.js';
import { openServiceConnection } from './connection.js';
import { ClickHouseReader } from './reader.js';
import { identifier, renderSql, sql, type SqlFragment } from './sql.js';

/** Reads through a writer see the same numbers as a reader's, without readonly (writes follow). */
const WRITER_READ_SETTINGS = { output_format_json_quote_64bit_integers: 0 } as const;

/**
 * The cluster a writer's DDL and mutations must reach (FRAMEDECK_CLICKHOUSE_CLUSTER): they run
 * `ON CLUSTER` on the replicated `<table>_local` tables, since the names queries use are
 * Distributed tables there (cluster-migrations.ts). `replicasCluster` lists every node as a shard
 * of its own, for reads that must reach every replica, not one per shard.
 */
export type WriterCluster = ClusterTarget & { replicasCluster: string };

/** The configured cluster, if any. */
export function writerCluster(config: ClickHouseConfig): WriterCluster | undefined {
  const target = clusterTarget(config);
  return target && config.replicasCluster ? { ...target, replicasCluster: config.replicasCluster } : undefined;
}

/**
 * FrameDeck's write access: inserts, DDL and mutations (and the reads that go with them, such as
 * a migration's bookkeeping). The consumer and the CLI hold a writer; the API only for erasure
 * mutations and the SQL sandbox's per-project views. One attempt per call: callers wrap a call
 * in `retryWrite` when they know when to give up.
 */
export class ClickHouseWriter extends ClickHouseReader {
  constructor(
    client: ConstructorParameters<typeof ClickHouseReader>[0],
    /** Set when the server is one node of this cluster: DDL and mutations must then reach every node. */
    readonly cluster?: WriterCluster,
  ) {
    super(client, WRITER_READ_SETTINGS);
  }

  /** ` ON CLUSTER <cluster>` for DDL that every node must run (names in it must be qualified); empty on one server. */
  onCluster(): SqlFragment {
    return this.cluster ? sql` ON CLUSTER ${identifier(this.cluster.cluster)}` : sql``;
  }

  /**
   * One DDL or SYSTEM statement, answered when the server has carried it out. A mutation sent
   * here waits for its rewrite or not as the user's profile says: startMutation never waits.
   */
  async command(statement: SqlFragment): Promise<void> {
    await this.literalStatement(statement, (await this.engine()).ddlSettings);
  }

  /**
   * A mutation (ALTER … DELETE), answered once the server has recorded it, whatever the user's
   * profile says (ServerEngine.mutationSettings): the rewrite runs in the background and is
   * followed in system.mutations.
   */
  async startMutation(statement: SqlFragment): Promise<void> {
    const engine = await this.engine();
    await this.literalStatement(statement, { ...engine.ddlSettings, ...engine.mutationSettings });
  }

  /**
   * Values are literals: the server stores a view's or a mutation's text as written, so it must
   * not refer to parameters of this request.
   */
  private async literalStatement(statement: SqlFragment, settings: ClickHouseSettings): Promise<void> {
    await this.client.command({ query: renderSql(statement, 'literals').query, clickhouse_settings: { ...settings } });
  }

  /** Rows already encoded as RowBinary for `columns` (see EventsRowBinaryBlock), with this insert's own `settings`. */
  async insertRowBinary(
    table: SqlFragment,
    columns: readonly string[],
    rowBinary: Buffer,
    settings: ClickHouseSettings = {},
  ): Promise<void> {
    const result = await this.client.exec({
      query: `INSERT INTO ${table.text} (${columns.join(', ')}) FORMAT RowBinary`,
      values: Readable.from([rowBinary]),
      clickhouse_settings: settings,
    });
    // The response body of an INSERT is empty, but the socket is only reusable once it is read.
    for await (const _ of result.stream) {
      // drain
    }
  }

  /** A few rows as JSON objects (small tables: rejections, bookkeeping). */
  async insertJsonRows(table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    if (rows.length === 0) return;
    await this.client.insert({ table, format: 'JSONEachRow', values: [...rows] });
  }
}

/** A writer on the configured database (or `database`); requests time out after a minute unless `requestTimeoutMs`. */
export function createClickHouseWriter(
  config: ClickHouseConfig,
  options: { database?: string; requestTimeoutMs?: number } = {},
): ClickHouseWriter {
  return new ClickHouseWriter(
    openServiceConnection(config, options.database, options.requestTimeoutMs),
    writerCluster(config),
  );
}

/** Creates the configured database if missing (through a connection not bound to it), on every node of a cluster. */
export async function ensureClickHouseDatabase(config: ClickHouseConfig): Promise<void> {
  const writer = createClickHouseWriter(config, { database: 'default' });
  try {
    await writer.command(sql`CREATE DATABASE IF NOT EXISTS ${identifier(config.database)}${writer.onCluster()}`);
  } finally {
    await writer.close();
  }
}
