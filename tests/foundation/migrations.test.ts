import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { CLICKHOUSE_MIGRATIONS_DIR, createClickHouseWriter, migrateClickHouse, raw, sql } from '@framedeck/clickhouse';
import { createPool, ensureDatabase, migratePostgres, POSTGRES_MIGRATIONS_DIR } from '@framedeck/postgres';
import { testConfig } from '../support/stack.js';

// Each run migrates brand-new databases, so "applies everything once" is really tested.
const suffix = `${Date.now().toString(36)}_${process.pid}`;
const pgUrl = testConfig.postgres.url.replace(/\/[^/]+$/, `/framedeck_migrate_${suffix}`);
const chDatabase = `framedeck_migrate_${suffix}`;
const admin = createClickHouseWriter(testConfig.clickhouse, { database: 'default' });

afterAll(async () => {
  await admin.command(raw(`DROP DATABASE IF EXISTS ${chDatabase}`));
  await admin.command(raw(`DROP DATABASE IF EXISTS ${chDatabase}_pair`));
  await admin.close();
  const pool = createPool({ ...testConfig.postgres, url: testConfig.postgres.url });
  await pool.query(`DROP DATABASE IF EXISTS framedeck_migrate_${suffix} WITH (FORCE)`);
  await pool.end();
});

describe('Postgres migrations', () => {
  it('apply once on a new database, then are skipped, leaving the schema unchanged', async () => {
    await ensureDatabase(pgUrl);
    await ensureDatabase(pgUrl); // creating twice is fine too
    const pool = createPool({ ...testConfig.postgres, url: pgUrl });
    try {
      const first = await migratePostgres(pool);
      expect(first.applied.length).toBeGreaterThan(0);
      expect(first.skipped).toEqual([]);
      const schema = async () =>
        (
          await pool.query(
            `SELECT table_name, column_name, data_type FROM information_schema.columns
              WHERE table_schema = 'public' ORDER BY 1, 2`,
          )
        ).rows;
      const before = await schema();
      const second = await migratePostgres(pool);
      expect(second.applied).toEqual([]);
      expect(second.skipped).toEqual(first.applied);
      expect(await schema()).toEqual(before);
      const plans = (await pool.query('SELECT id FROM plans ORDER BY id')).rows.map((r) => r.id);
      expect(plans).toEqual(['enterprise', 'free', 'pro']);
    } finally {
      await pool.end();
    }
  });

  it('run concurrently without applying anything twice', async () => {
    const url = pgUrl.replace(/migrate_/, 'migrate_concurrent_');
    await ensureDatabase(url);
    const pools = [createPool({ ...testConfig.postgres, url }), createPool({ ...testConfig.postgres, url })];
    try {
      const [a, b] = await Promise.all(pools.map((p) => migratePostgres(p)));
      expect([...a!.applied, ...b!.applied].sort()).toEqual([...a!.applied, ...a!.skipped].sort());
    } finally {
      await Promise.all(pools.map((p) => p.end()));
      const pool = createPool(testConfig.postgres);
      await pool.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
      await pool.end();
    }
  });

  it('refuse to run when an applied migration was edited', async () => {
    const dir = await mkdtemp(`${tmpdir()}/pg-migrations-`);
    await cp(POSTGRES_MIGRATIONS_DIR, dir, { recursive: true });
    const pool = createPool({ ...testConfig.postgres, url: pgUrl });
    try {
      await migratePostgres(pool, dir);
      const file = `${dir}/001_tenants_projects_keys.sql`;
      await writeFile(file, `${await readFile(file, 'utf8')}\n-- edited\n`);
      await expect(migratePostgres(pool, dir)).rejects.toThrow(/001_tenants_projects_keys\.sql was changed/);
    } finally {
      await pool.end();
    }
  });
});

describe('ClickHouse migrations', () => {
  it('apply once on a new database, then are skipped', async () => {
    await admin.command(raw(`CREATE DATABASE IF NOT EXISTS ${chDatabase}`));
    const client = createClickHouseWriter(testConfig.clickhouse, { database: chDatabase });
    try {
      const first = await migrateClickHouse(client);
      expect(first.applied).toContain('001_events.sql');
      const second = await migrateClickHouse(client);
      expect(second.applied).toEqual([]);
      expect(second.skipped).toEqual(first.applied);
      const columns = await client.rows<{ name: string; type: string }>(
        sql`SELECT name, type FROM system.columns WHERE database = ${chDatabase} AND table = 'events'`,
      );
      const types = Object.fromEntries(columns.map((c) => [c.name, c.type]));
      expect(types).toMatchObject({
        project_id: 'UUID',
        event_id: 'UUID',
        timestamp_us: 'Int64',
        timestamp: 'DateTime',
        camera_yaw: 'Nullable(Float32)',
        'attributes.key': 'Array(String)',
        'metrics.value': 'Array(Float64)',
        received_at: 'DateTime',
      });
    } finally {
      await client.close();
    }
  });

  it('refuse to run when an applied migration was edited', async () => {
    const dir = await mkdtemp(`${tmpdir()}/ch-migrations-`);
    await cp(CLICKHOUSE_MIGRATIONS_DIR, dir, { recursive: true });
    const client = createClickHouseWriter(testConfig.clickhouse, { database: chDatabase });
    try {
      await migrateClickHouse(client, dir);
      await writeFile(`${dir}/001_events.sql`, `${await readFile(`${dir}/001_events.sql`, 'utf8')}\n-- edited\n`);
      await expect(migrateClickHouse(client, dir)).rejects.toThrow(/001_events\.sql was changed/);
    } finally {
      await client.close();
    }
  });

  it('run the file of a legacy/modern pair that matches the server, and skip a guarded statement whose table is gone', async () => {
    const dir = await mkdtemp(`${tmpdir()}/ch-migrations-pair-`);
    await writeFile(`${dir}/001_base.sql`, 'CREATE TABLE IF NOT EXISTS base (x UInt8) ENGINE = Log;\n');
    await writeFile(
      `${dir}/002_pair.legacy.sql`,
      'CREATE TABLE IF NOT EXISTS made_by_legacy (x UInt8) ENGINE = Log;\n',
    );
    await writeFile(
      `${dir}/002_pair.modern.sql`,
      'CREATE TABLE IF NOT EXISTS made_by_modern (x UInt8) ENGINE = Log;\n',
    );
    await writeFile(
      `${dir}/003_swap.sql`,
      [
        '-- framedeck:when-table-exists base',
        'RENAME TABLE base TO base_renamed;',
        '-- framedeck:when-table-exists no_such_table',
        'RENAME TABLE no_such_table TO base;',
      ].join('\n'),
    );
    await admin.command(raw(`CREATE DATABASE IF NOT EXISTS ${chDatabase}_pair`));
    const client = createClickHouseWriter(testConfig.clickhouse, { database: `${chDatabase}_pair` });
    try {
      const { generation } = await client.engine();
      const other = generation === 'legacy' ? 'modern' : 'legacy';
      const first = await migrateClickHouse(client, dir);
      expect(first.applied).toEqual(['001_base.sql', `002_pair.${generation}.sql`, '003_swap.sql']);
      const tables = await client.rows<{ name: string }>(
        sql`SELECT name FROM system.tables WHERE database = currentDatabase() ORDER BY name`,
      );
      expect(tables.map((t) => t.name)).toEqual(['base_renamed', `made_by_${generation}`, 'schema_migrations']);
      expect(tables.map((t) => t.name)).not.toContain(`made_by_${other}`);
      const second = await migrateClickHouse(client, dir);
      expect(second).toEqual({ applied: [], skipped: first.applied });
    } finally {
      await client.close();
    }
  });
});
