import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  distributedTableSql,
  localCopySql,
  localTable,
  translateForCluster,
  type ClusterStep,
  type ClusterTarget,
} from './cluster-migrations.js';
import type { ServerEngine } from './server-engine.js';
import { raw, sql } from './sql.js';
import type { ClickHouseWriter } from './writer.js';

/** clickhouse/ at the repository root: ordered, frozen, plain .sql files. */
export const CLICKHOUSE_MIGRATIONS_DIR = fileURLToPath(new URL('../../../clickhouse/', import.meta.url));

/**
 * A migration file's name: `NNN_words.sql` runs on every server; `NNN_words.legacy.sql` or
 * `NNN_words.modern.sql` only on that generation (server-engine.ts), for DDL one of them cannot
 * parse (TTL is modern-only). Both files of a pair are recorded under their own names.
 */
const MIGRATION_FILE = /^\d{3}_[a-z0-9_]+(?:\.(legacy|modern))?\.sql$/;

/**
 * Guards, for the statements ClickHouse cannot write IF [NOT] EXISTS (RENAME TABLE; 18.16 has no
 * ADD COLUMN IF NOT EXISTS nor DROP COLUMN IF EXISTS): they keep a file that stopped half-way
 * re-runnable. A statement preceded by the line
 * - `-- framedeck:when-table-exists <table>` runs only while that table exists;
 * - `-- framedeck:when-column-missing <table> <column>` only while the table lacks that column;
 * - `-- framedeck:when-column-exists <table> <column>` only while the table has that column.
 */
const GUARD =
  /^--\s*framedeck:when-(table-exists|column-missing|column-exists)\s+([a-z_][a-z0-9_]*)(?:\s+([a-z_][a-z0-9_]*))?\s*$/;

/**
 * `view_output(<view>, <its target table>)` in a migration's FROM names the rows a materialized
 * view writes, for a view that aggregates another view's output rather than the raw input
 * (clickhouse/032). The engines run such a view from different places: 18.16 runs the views that
 * read the first view itself, the modern engine those that read its target table, and each
 * ignores the other form (a view registered the other way is created but never fed).
 */
const VIEW_OUTPUT = /\bview_output\(\s*([a-z_][a-z0-9_]*)\s*,\s*([a-z_][a-z0-9_]*)\s*\)/gi;

/**
 * A statement with each `view_output(view, table)` replaced by the name this server's engine
 * feeds; on a cluster qualified, the view by its own name, a table by its local table's, so that
 * the cluster translation keeps it as it is.
 */
export function resolveViewOutputs(
  statement: string,
  generation: ServerEngine['generation'],
  cluster?: ClusterTarget,
): string {
  return statement.replace(VIEW_OUTPUT, (_, view: string, table: string) => {
    if (!cluster) return generation === 'legacy' ? view : table;
    return `${cluster.database}.${generation === 'legacy' ? view : localTable(table)}`;
  });
}

export type MigrationGuard =
  { kind: 'table-exists'; table: string } | { kind: 'column-missing' | 'column-exists'; table: string; column: string };

export type MigrationStatement = { text: string; guard?: MigrationGuard };

/** Statements in a migration file are separated by a `;` at the end of a line. */
export function splitStatements(text: string): string[] {
  return parseStatements(text).map((s) => s.text);
}

function parseGuard(line: string): MigrationGuard | undefined {
  const match = GUARD.exec(line);
  if (!match) return undefined;
  const [, kind, table, column] = match as unknown as [string, string, string, string | undefined];
  if (kind === 'table-exists' && column === undefined) return { kind, table };
  if ((kind === 'column-missing' || kind === 'column-exists') && column !== undefined) return { kind, table, column };
  throw new Error(`malformed migration guard: ${line}`);
}

/** The statements of a file with their guards (a guard applies to the statement that follows it). */
export function parseStatements(text: string): MigrationStatement[] {
  const statements: MigrationStatement[] = [];
  let guard: MigrationGuard | undefined;
  let lines: string[] = [];
  const flush = (tail: string) => {
    const body = [...lines, tail].join('\n').trim();
    lines = [];
    if (!body) return;
    statements.push(guard === undefined ? { text: body } : { text: body, guard });
    guard = undefined;
  };
  for (const line of text.split('\n')) {
    const lineGuard = parseGuard(line.trim());
    if (lineGuard) {
      guard = lineGuard;
      continue;
    }
    if (line.trim().startsWith('--')) continue;
    const parts = line.split(/;\s*$/);
    if (parts.length > 1) flush(parts[0] ?? '');
    else lines.push(line);
  }
  flush('');
  return statements;
}

/**
 * Applies the files not yet recorded in `schema_migrations` of the client's database.
 * A recorded file whose text changed is an error. ClickHouse has no transactions: every
 * statement is written IF NOT EXISTS (or guarded, see TABLE_GUARD), so a file interrupted
 * half-way can simply run again.
 *
 * With `cluster` (the writer's database on that cluster), every statement runs translated for
 * the cluster (cluster-migrations.ts) and `schema_migrations` is one table replicated on every
 * node, so any node knows what was applied.
 */
export async function migrateClickHouse(
  writer: ClickHouseWriter,
  dir = CLICKHOUSE_MIGRATIONS_DIR,
  cluster?: ClusterTarget,
): Promise<{ applied: string[]; skipped: string[] }> {
  if (cluster) {
    // {shard} left out of the path: the four nodes are replicas of one table.
    await writer.command(
      raw(`CREATE TABLE IF NOT EXISTS ${cluster.database}.schema_migrations ON CLUSTER ${cluster.cluster}
        (name String, checksum String, applied_at DateTime)
        ENGINE = ReplicatedReplacingMergeTree('/clickhouse/{cluster}/tables/all/${cluster.database}/schema_migrations', '{replica}')
        ORDER BY name`),
    );
  } else {
    await writer.command(
      sql`CREATE TABLE IF NOT EXISTS schema_migrations (name String, checksum String, applied_at DateTime)
        ENGINE = ReplacingMergeTree() ORDER BY name`,
    );
  }
  const recordedRows = await writer.rows<{ name: string; checksum: string }>(
    sql`SELECT name, any(checksum) AS checksum FROM schema_migrations GROUP BY name`,
  );
  const recorded = new Map(recordedRows.map((r) => [r.name, r.checksum]));
  const { generation } = await writer.engine();
  const files = (await readdir(dir))
    .filter((f) => {
      const match = MIGRATION_FILE.exec(f);
      return match !== null && (match[1] === undefined || match[1] === generation);
    })
    .sort();
  const result = { applied: [] as string[], skipped: [] as string[] };
  for (const file of files) {
    const text = await readFile(`${dir}/${file}`, 'utf8');
    const checksum = createHash('sha256').update(text).digest('hex');
    const known = recorded.get(file);
    if (known !== undefined) {
      if (known !== checksum) throw new Error(`ClickHouse migration ${file} was changed after it was applied`);
      result.skipped.push(file);
      continue;
    }
    for (const statement of parseStatements(text)) {
      if (statement.guard && !(await guardHolds(writer, statement.guard, cluster))) continue;
      const resolved = resolveViewOutputs(statement.text, generation, cluster);
      try {
        // Migration files are our own frozen text, not input.
        if (cluster) await runClusterSteps(writer, translateForCluster(resolved, cluster), cluster);
        else await writer.command(raw(resolved));
      } catch (error) {
        throw new Error(`ClickHouse migration ${file} failed: ${(error as Error).message}`);
      }
    }
    await writer.command(
      sql`INSERT INTO schema_migrations (name, checksum, applied_at) VALUES (${file}, ${checksum}, now())`,
    );
    result.applied.push(file);
  }
  return result;
}

/** Whether a guarded statement should run (on a cluster a column is looked up in the node's local table). */
async function guardHolds(writer: ClickHouseWriter, guard: MigrationGuard, cluster?: ClusterTarget): Promise<boolean> {
  if (guard.kind === 'table-exists') {
    const [row] = await writer.rows<{ n: number }>(
      sql`SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = ${guard.table}`,
    );
    return Number(row?.n ?? 0) > 0;
  }
  const table = cluster ? localTable(guard.table) : guard.table;
  const [row] = await writer.rows<{ n: number }>(
    sql`SELECT count() AS n FROM system.columns
         WHERE database = currentDatabase() AND table = ${table} AND name = ${guard.column}`,
  );
  const exists = Number(row?.n ?? 0) > 0;
  return guard.kind === 'column-exists' ? exists : !exists;
}

async function runClusterSteps(writer: ClickHouseWriter, steps: ClusterStep[], cluster: ClusterTarget): Promise<void> {
  for (const step of steps) {
    if (step.kind === 'sql') await writer.command(raw(step.text));
    else if (step.kind === 'distributed')
      await writer.command(
        raw(distributedTableSql(step.table, await showCreateLocal(writer, step.table, cluster), cluster)),
      );
    else
      await writer.command(
        raw(localCopySql(step.table, await showCreateLocal(writer, step.source, cluster), cluster, step.engine)),
      );
  }
}

async function showCreateLocal(writer: ClickHouseWriter, table: string, cluster: ClusterTarget): Promise<string> {
  const [row] = await writer.rows<{ statement: string }>(
    raw(`SHOW CREATE TABLE ${cluster.database}.${localTable(table)}`),
  );
  if (!row) throw new Error(`SHOW CREATE TABLE ${localTable(table)} returned nothing`);
  return row.statement;
}
