import pg from 'pg';
import type { PostgresConfig } from '@framedeck/config';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

// NOTE: node-postgres returns int8/numeric as strings to avoid precision loss. Our bigints
// (counts, budgets) stay far below 2^53, so numbers are what callers expect.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function createPool(config: PostgresConfig): pg.Pool {
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolMax,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
}

/** Runs `work` in one transaction; rolls back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Creates the database named in `url` when it does not exist yet, by connecting to the
 * server's maintenance database. Lets `npm start` work on a server that has never seen us.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) throw new Error(`unsupported database name: ${name}`);
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      // Identifier validated above; CREATE DATABASE cannot take a bind parameter.
      await client.query(`CREATE DATABASE "${name}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created concurrently by another process
      });
    }
  } finally {
    await client.end();
  }
}
