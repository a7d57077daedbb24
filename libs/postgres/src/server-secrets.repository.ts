import type { Queryable } from './queryable.js';

/**
 * Returns the secret stored under `name`, storing `generate()`'s value first when there is
 * none. Concurrent first starts agree: the first insert wins and everyone reads it back.
 */
export async function getOrCreateServerSecret<T>(db: Queryable, name: string, generate: () => T): Promise<T> {
  const stored = await readSecret<T>(db, name);
  if (stored !== undefined) return stored;
  await db.query(`INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
    name,
    JSON.stringify(generate()),
  ]);
  return (await readSecret<T>(db, name))!;
}

async function readSecret<T>(db: Queryable, name: string): Promise<T | undefined> {
  const { rows } = await db.query<{ value: T }>(`SELECT value FROM server_secrets WHERE name = $1`, [name]);
  return rows[0]?.value;
}
