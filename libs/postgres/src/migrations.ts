import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

export const POSTGRES_MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

export type MigrationResult = { applied: string[]; skipped: string[] };

// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK_ID = 727_001;

/**
 * Applies the numbered .sql files in `dir` that are not recorded yet, each in its own
 * transaction, under an advisory lock so concurrent starts do not race. A recorded file whose
 * content changed is an error: applied migrations are frozen.
 */
export async function migratePostgres(pool: pg.Pool, dir = POSTGRES_MIGRATIONS_DIR): Promise<MigrationResult> {
  const files = (await readdir(dir)).filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f)).sort();
  const client = await pool.connect();
  const result: MigrationResult = { applied: [], skipped: [] };
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const recorded = new Map<string, string>(
      (await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_migrations')).rows.map(
        (r) => [r.name, r.checksum],
      ),
    );
    for (const file of files) {
      const sql = await readFile(`${dir}/${file}`, 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      const known = recorded.get(file);
      if (known !== undefined) {
        if (known !== checksum) throw new Error(`migration ${file} was changed after it was applied`);
        result.skipped.push(file);
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [file, checksum]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(error as Error).message}`);
      }
      result.applied.push(file);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    client.release();
  }
  return result;
}
