import type { ClickHouseConfig } from '@framedeck/config';

/**
 * Translation of the single-node migrations (clickhouse/*.sql) for a sharded, replicated
 * ClickHouse cluster (FRAMEDECK_CLICKHOUSE_CLUSTER), so the files stay the one description of
 * the schema and every query keeps its table names:
 *
 * - a table `t` becomes `t_local` on every node, its MergeTree engine the Replicated one
 *   (ZooKeeper path per shard), plus `t`, a Distributed table over the `t_local`s;
 * - a materialized view reads and writes the local tables, so every shard rolls up its own rows
 *   (readers merge the shards' partial aggregates through the Distributed tables);
 * - DDL runs ON CLUSTER with every name qualified: 18.16 runs an ON CLUSTER statement on the
 *   other nodes in their default database, not the caller's;
 * - an ALTER of a local table runs ON CLUSTER `alterCluster`, one replica of each shard, and
 *   replication carries it to the other replicas: when two replicas of a shard take the same
 *   ALTER task, 18.16's DDL worker can lose the race (`Node exists …/executed`) and stop for
 *   good on that node;
 * - INSERT … SELECT (backfills) runs as written, on one node, through the Distributed tables.
 *
 * The sharding key hashes the sorting key: rows that a ReplacingMergeTree collapses (same
 * sorting key, e.g. a redelivered event) always land on the same shard, so FINAL stays exact,
 * while one project's events (the key ends in event_id) spread over every shard.
 * A statement of any other form is refused rather than run on one node only.
 */

/** What a migration statement becomes: DDL to run, or a table to derive from the server's copy. */
export type ClusterStep =
  | { kind: 'sql'; text: string }
  /** The Distributed table `table` over `table_local`, derived from `table_local`'s definition. */
  | { kind: 'distributed'; table: string }
  /**
   * `table_local` with the columns of `source_local` and its engine (its own ZooKeeper path), or
   * the migration's own `engine` clause (`CREATE TABLE t AS s ENGINE = …`: other key, same columns).
   */
  | { kind: 'local-copy'; table: string; source: string; engine?: string };

/** The cluster DDL runs on when the configuration names one (FRAMEDECK_CLICKHOUSE_CLUSTER). */
export function clusterTarget(config: ClickHouseConfig): ClusterTarget | undefined {
  return config.cluster && config.alterCluster
    ? { cluster: config.cluster, database: config.database, alterCluster: config.alterCluster }
    : undefined;
}

export type ClusterTarget = {
  cluster: string;
  database: string;
  /** One replica of each shard (internal_replication): where ALTERs of the replicated tables go. */
  alterCluster: string;
};

const NAME = '[a-z_][a-z0-9_]*';
const CREATE_TABLE = new RegExp(
  `^CREATE TABLE IF NOT EXISTS (${NAME})\\s*\\(([\\s\\S]*)\\)\\s*ENGINE\\s*=\\s*([\\s\\S]*)$`,
  'i',
);
const CREATE_TABLE_AS = new RegExp(
  `^CREATE TABLE IF NOT EXISTS (${NAME}) AS (${NAME})(?:\\s+ENGINE\\s*=\\s*([\\s\\S]*))?$`,
  'i',
);
const CREATE_VIEW = new RegExp(
  `^CREATE MATERIALIZED VIEW IF NOT EXISTS (${NAME}) TO (${NAME}) AS\\s+(SELECT[\\s\\S]*)$`,
  'i',
);
const ALTER_TABLE = new RegExp(`^ALTER TABLE (${NAME})\\s+([\\s\\S]*)$`, 'i');
const RENAME_TABLE = /^RENAME TABLE\s+([\s\S]*)$/i;
const DROP_TABLE = new RegExp(`^DROP TABLE IF EXISTS (${NAME})$`, 'i');
const INSERT_SELECT = /^INSERT INTO [\s\S]*\bSELECT\b/i;
const MERGE_TREE_ENGINE = /^(\w*MergeTree)\(([^)]*)\)([\s\S]*)$/;

export const localTable = (table: string) => `${table}_local`;

/** The ZooKeeper path of a local table's replicas: one per shard ({shard} is each node's macro). */
export function replicationPath(database: string, table: string): string {
  return `/clickhouse/{cluster}/tables/{shard}/${database}/${localTable(table)}`;
}

/** The steps one single-node migration statement becomes on the cluster. */
export function translateForCluster(statement: string, target: ClusterTarget): ClusterStep[] {
  const text = statement.trim();
  const { cluster, database } = target;
  const q = (name: string) => `${database}.${name}`;
  const onCluster = `ON CLUSTER ${cluster}`;
  const sqlStep = (s: string): ClusterStep => ({ kind: 'sql', text: s });

  let m = CREATE_TABLE.exec(text);
  if (m) {
    const [, table, columns, engine] = m as unknown as [string, string, string, string];
    return [
      sqlStep(
        `CREATE TABLE IF NOT EXISTS ${q(localTable(table))} ${onCluster} (${columns}) ENGINE = ${replicatedEngine(engine, replicationPath(database, table))}`,
      ),
      { kind: 'distributed', table },
    ];
  }
  m = CREATE_TABLE_AS.exec(text);
  if (m) {
    const [, table, source, engine] = m as unknown as [string, string, string, string | undefined];
    return [
      { kind: 'local-copy', table, source, ...(engine ? { engine: engine.trim() } : {}) },
      { kind: 'distributed', table },
    ];
  }
  m = CREATE_VIEW.exec(text);
  if (m) {
    const [, view, to, select] = m as unknown as [string, string, string, string];
    // A qualified name is already the node's own (migrations.ts resolveViewOutputs: a view that
    // reads another view's output).
    const localSelect = select.replace(new RegExp(`\\bFROM\\s+(${NAME})\\b(?!\\.)`, 'gi'), (_, from: string) => {
      return `FROM ${q(localTable(from))}`;
    });
    return [
      sqlStep(
        `CREATE MATERIALIZED VIEW IF NOT EXISTS ${q(view)} ${onCluster} TO ${q(localTable(to))} AS ${localSelect}`,
      ),
    ];
  }
  m = ALTER_TABLE.exec(text);
  if (m) {
    const [, table, body] = m as unknown as [string, string, string];
    const steps = [sqlStep(`ALTER TABLE ${q(localTable(table))} ON CLUSTER ${target.alterCluster} ${body}`)];
    // A column change must reach the Distributed table too (it lists the columns it reads).
    // It is made again from the altered local table (an ALTER of a table that is not replicated
    // would reach only the alter cluster's replica of each shard, and 18.16 refuses it there).
    if (/^(ADD|DROP|MODIFY) COLUMN\b/i.test(body.trim())) {
      steps.push(sqlStep(`DROP TABLE IF EXISTS ${q(table)} ${onCluster}`), { kind: 'distributed', table });
    }
    return steps;
  }
  m = RENAME_TABLE.exec(text);
  if (m) {
    const pairs = (m[1] as string).split(',').map((pair) => {
      const names = new RegExp(`^\\s*(${NAME})\\s+TO\\s+(${NAME})\\s*$`, 'i').exec(pair);
      if (!names) throw new Error(`no cluster translation for RENAME part: ${pair.trim()}`);
      return { from: names[1] as string, to: names[2] as string };
    });
    // The local tables carry the data and are renamed (in one statement, as the original);
    // a Distributed table names its local table, so it is made again for the new name.
    return [
      sqlStep(
        `RENAME TABLE ${pairs.map((p) => `${q(localTable(p.from))} TO ${q(localTable(p.to))}`).join(', ')} ${onCluster}`,
      ),
      ...pairs.map((p) => sqlStep(`DROP TABLE IF EXISTS ${q(p.from)} ${onCluster}`)),
      ...pairs.map((p): ClusterStep => ({ kind: 'distributed', table: p.to })),
    ];
  }
  m = DROP_TABLE.exec(text);
  if (m) {
    const table = m[1] as string;
    // A view has no local table: its IF EXISTS drop is a no-op.
    return [
      sqlStep(`DROP TABLE IF EXISTS ${q(table)} ${onCluster}`),
      sqlStep(`DROP TABLE IF EXISTS ${q(localTable(table))} ${onCluster}`),
    ];
  }
  if (INSERT_SELECT.test(text)) return [sqlStep(text)];
  throw new Error(`no cluster translation for: ${text.split('\n')[0]}`);
}

/** `XMergeTree(args) rest` → `ReplicatedXMergeTree('path', '{replica}', args) rest`; Null stays. */
export function replicatedEngine(engine: string, path: string): string {
  const trimmed = engine.trim();
  if (/^Null$/i.test(trimmed)) return 'Null';
  const m = MERGE_TREE_ENGINE.exec(trimmed);
  if (!m) throw new Error(`no cluster translation for engine ${trimmed.split(/\s/)[0]}`);
  const [, family, args, rest] = m as unknown as [string, string, string, string];
  const replicated = family.startsWith('Replicated') ? family : `Replicated${family}`;
  const allArgs = [`'${path}'`, `'{replica}'`, ...(args.trim() ? [args.trim()] : [])].join(', ');
  return `${replicated}(${allArgs})${rest}`;
}

/**
 * Column definitions as a Distributed table declares them: MATERIALIZED read as ALIAS. A
 * Distributed table would compute a MATERIALIZED column and send it, and the shard refuses a
 * value for its own MATERIALIZED column (measured on 18.16).
 */
export function distributedColumns(columns: string): string {
  return columns.replace(/\bMATERIALIZED\b/g, 'ALIAS');
}

/**
 * The parts of a table's `SHOW CREATE TABLE` text the cluster steps need: its column list and
 * its engine clause (from `ENGINE =` to the end).
 */
export function parseTableDefinition(createTable: string): { columns: string; engine: string } {
  const m = /^CREATE TABLE \S+\s*\(([\s\S]*)\)\s*ENGINE\s*=\s*([\s\S]*)$/i.exec(createTable.trim());
  if (!m) throw new Error(`not a CREATE TABLE with an engine: ${createTable.slice(0, 80)}`);
  return { columns: m[1] as string, engine: (m[2] as string).trim() };
}

/**
 * The batch an event id belongs to (libs/clickhouse event-id.ts: the batch UUID with the event's
 * index in its last 32 bits), as the rollup ledger keys batches (clickhouse/007 batch_key).
 */
const BATCH_OF_EVENT_ID = 'substring(toString(event_id), 1, 28)';

/**
 * The sharding key of a table with this definition: a hash of its sorting key (see the module
 * comment). A table without one that has event_id (the rollups' Null input) by batch: a batch's
 * rollup rows and its ledger row then land on one shard in one insert, so a retried insert that
 * failed on one shard cannot find the batch recorded by another shard and skip it (measured: sharded
 * by event id, a replica killed under load left 185 of 11,640 events out of the rollups).
 * Otherwise any shard. toString: cityHash64 refuses a UUID argument on 18.16.
 */
export function shardingKey(definition: { columns: string; engine: string }): string {
  const orderBy = /\bORDER BY\s+([\s\S]*?)(?:\s+SETTINGS\b[\s\S]*)?$/i.exec(definition.engine);
  if (orderBy) {
    const key = (orderBy[1] as string).trim();
    const parts = key.startsWith('(') && key.endsWith(')') ? splitTopLevel(key.slice(1, -1)) : [key];
    return `cityHash64(${parts.map((p) => `toString(${p})`).join(', ')})`;
  }
  if (/(^|[\s,(])`?event_id`?\s+UUID\b/.test(definition.columns)) return `cityHash64(${BATCH_OF_EVENT_ID})`;
  return 'rand()';
}

/** The Distributed table `table` over `table_local`, from `table_local`'s SHOW CREATE TABLE text. */
export function distributedTableSql(table: string, localCreateTable: string, target: ClusterTarget): string {
  const definition = parseTableDefinition(localCreateTable);
  return (
    `CREATE TABLE IF NOT EXISTS ${target.database}.${table} ON CLUSTER ${target.cluster} (${distributedColumns(definition.columns)}) ` +
    `ENGINE = Distributed(${target.cluster}, ${target.database}, ${localTable(table)}, ${shardingKey(definition)})`
  );
}

/**
 * `table_local` as a copy of `source_local` (from its SHOW CREATE TABLE text), with its own
 * replication path: the source's engine, or `ownEngine` (a single-node engine clause) made
 * Replicated.
 */
export function localCopySql(
  table: string,
  sourceLocalCreateTable: string,
  target: ClusterTarget,
  ownEngine?: string,
): string {
  const definition = parseTableDefinition(sourceLocalCreateTable);
  const path = replicationPath(target.database, table);
  const engine =
    ownEngine !== undefined
      ? replicatedEngine(ownEngine, path)
      : definition.engine.replace(/^(\w+)\('[^']*'/, `$1('${path}'`);
  return (
    `CREATE TABLE IF NOT EXISTS ${target.database}.${localTable(table)} ON CLUSTER ${target.cluster} ` +
    `(${definition.columns}) ENGINE = ${engine}`
  );
}

/** Splits `a, f(b, c), d` at the commas outside parentheses and quotes. */
export function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (const ch of list) {
    if (ch === "'") quoted = !quoted;
    if (!quoted && ch === '(') depth += 1;
    if (!quoted && ch === ')') depth -= 1;
    if (!quoted && depth === 0 && ch === ',') {
      parts.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}
