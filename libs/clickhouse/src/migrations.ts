import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { raw, sql } from './sql.js';
import type { ClickHouseWriter } from './writer.js';

/** clickhouse/ at the repository root: ordered, frozen, plain .sql files. */
export const CLICKHOUSE_MIGRATIONS_DIR = fileURLToPath(new URL('../../../clickhouse/', import.meta.url));

/** Statements in a migration file are separated by a `;` at the end of a line. */
export function splitStatements(text: string): string[] {
  const withoutComments = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n');
  return withoutComments
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Applies the files not yet recorded in `schema_migrations` of the client's database.
 * A recorded file whose text changed is an error. ClickHouse has no transactions: every
 * statement is written IF NOT EXISTS, so a file interrupted half-way can simply run again.
 */
export async function migrateClickHouse(
  writer: ClickHouseWriter,
  dir = CLICKHOUSE_MIGRATIONS_DIR,
): Promise<{ applied: string[]; skipped: string[] }> {
  await writer.command(
    sql`CREATE TABLE IF NOT EXISTS schema_migrations (name String, checksum String, applied_at DateTime)
        ENGINE = ReplacingMergeTree() ORDER BY name`,
  );
  const recordedRows = await writer.rows<{ name: string; checksum: string }>(
    sql`SELECT name, any(checksum) AS checksum FROM schema_migrations GROUP BY name`,
  );
  const recorded = new Map(recordedRows.map((r) => [r.name, r.checksum]));
  const files = (await readdir(dir)).filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f)).sort();
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
    for (const statement of splitStatements(text)) {
      try {
        // Migration files are our own frozen text, not input.
        await writer.command(raw(statement));
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
