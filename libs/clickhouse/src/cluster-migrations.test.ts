import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  distributedTableSql,
  localCopySql,
  replicatedEngine,
  shardingKey,
  splitTopLevel,
  translateForCluster,
} from './cluster-migrations.js';
import { CLICKHOUSE_MIGRATIONS_DIR, parseStatements, resolveViewOutputs } from './migrations.js';

const target = { cluster: 'framedeck', database: 'fd', alterCluster: 'framedeck_alter' };

describe('translateForCluster', () => {
  it('makes a table a replicated local table on every node plus a Distributed table of its name', () => {
    const steps = translateForCluster(
      `CREATE TABLE IF NOT EXISTS event_rejections (
  project_id UUID,
  batch_id   UUID,
  count      UInt64
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, batch_id)`,
      target,
    );
    expect(steps).toEqual([
      {
        kind: 'sql',
        text: expect.stringMatching(
          /^CREATE TABLE IF NOT EXISTS fd\.event_rejections_local ON CLUSTER framedeck \(\n {2}project_id UUID,[\s\S]*\) ENGINE = ReplicatedReplacingMergeTree\('\/clickhouse\/\{cluster\}\/tables\/\{shard\}\/fd\/event_rejections_local', '\{replica\}'\)\nPARTITION BY toYYYYMM\(day\)\nORDER BY \(project_id, batch_id\)$/,
        ),
      },
      { kind: 'distributed', table: 'event_rejections' },
    ]);
  });

  it('keeps engine arguments after the replication path and leaves a Null engine alone', () => {
    expect(replicatedEngine('SummingMergeTree((events)) ORDER BY x', '/p')).toBe(
      "ReplicatedSummingMergeTree('/p', '{replica}', (events)) ORDER BY x",
    );
    expect(replicatedEngine('Null', '/p')).toBe('Null');
    expect(() => replicatedEngine('Log', '/p')).toThrow(/no cluster translation for engine Log/);
  });

  it('points a materialized view at the local tables, so each shard rolls up its own rows', () => {
    const [step] = translateForCluster(
      `CREATE MATERIALIZED VIEW IF NOT EXISTS player_days_mv TO player_days AS
SELECT DISTINCT project_id, player_id, toDate(timestamp) AS day
  FROM events
 WHERE player_id != ''`,
      target,
    );
    expect(step).toEqual({
      kind: 'sql',
      text: `CREATE MATERIALIZED VIEW IF NOT EXISTS fd.player_days_mv ON CLUSTER framedeck TO fd.player_days_local AS SELECT DISTINCT project_id, player_id, toDate(timestamp) AS day
  FROM fd.events_local
 WHERE player_id != ''`,
    });
  });

  it("keeps a qualified source as it is: a view reading another view's output on the same node", () => {
    const statement = resolveViewOutputs(
      `CREATE MATERIALIZED VIEW IF NOT EXISTS overview_mv TO overview AS
SELECT project_id, sum(events) AS events FROM view_output(cells_mv, cells) GROUP BY project_id`,
      'legacy',
      target,
    );
    expect(translateForCluster(statement, target)).toEqual([
      {
        kind: 'sql',
        text: 'CREATE MATERIALIZED VIEW IF NOT EXISTS fd.overview_mv ON CLUSTER framedeck TO fd.overview_local AS SELECT project_id, sum(events) AS events FROM fd.cells_mv GROUP BY project_id',
      },
    ]);
  });

  it('copies a table made AS another from the server with its own path, then distributes it', () => {
    expect(translateForCluster('CREATE TABLE IF NOT EXISTS rollup_b AS rollup_a', target)).toEqual([
      { kind: 'local-copy', table: 'rollup_b', source: 'rollup_a' },
      { kind: 'distributed', table: 'rollup_b' },
    ]);
    const source =
      "CREATE TABLE fd.rollup_a_local ( project_id UUID,  events AggregateFunction(count)) ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/{cluster}/tables/{shard}/fd/rollup_a_local', '{replica}') ORDER BY project_id SETTINGS index_granularity = 8192";
    expect(localCopySql('rollup_b', source, target)).toBe(
      "CREATE TABLE IF NOT EXISTS fd.rollup_b_local ON CLUSTER framedeck ( project_id UUID,  events AggregateFunction(count)) ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/{cluster}/tables/{shard}/fd/rollup_b_local', '{replica}') ORDER BY project_id SETTINGS index_granularity = 8192",
    );
  });

  it('copies a table made AS another with an engine of its own (another key) as that engine, replicated', () => {
    const statement =
      'CREATE TABLE IF NOT EXISTS rollup_b AS rollup_a ENGINE = SummingMergeTree()\nPARTITION BY toYYYYMM(day)\nORDER BY (project_id, day)';
    expect(translateForCluster(statement, target)).toEqual([
      {
        kind: 'local-copy',
        table: 'rollup_b',
        source: 'rollup_a',
        engine: 'SummingMergeTree()\nPARTITION BY toYYYYMM(day)\nORDER BY (project_id, day)',
      },
      { kind: 'distributed', table: 'rollup_b' },
    ]);
    const source =
      "CREATE TABLE fd.rollup_a_local ( project_id UUID,  day Date,  events UInt64) ENGINE = ReplicatedSummingMergeTree('/clickhouse/{cluster}/tables/{shard}/fd/rollup_a_local', '{replica}') ORDER BY (project_id, events, day) SETTINGS index_granularity = 8192";
    expect(localCopySql('rollup_b', source, target, 'SummingMergeTree() ORDER BY (project_id, day)')).toBe(
      "CREATE TABLE IF NOT EXISTS fd.rollup_b_local ON CLUSTER framedeck ( project_id UUID,  day Date,  events UInt64) ENGINE = ReplicatedSummingMergeTree('/clickhouse/{cluster}/tables/{shard}/fd/rollup_b_local', '{replica}') ORDER BY (project_id, day)",
    );
  });

  it('alters the local tables through the alter cluster (one replica per shard) and makes the Distributed table again from them', () => {
    expect(
      translateForCluster('ALTER TABLE events\n  ADD COLUMN h UInt64 MATERIALIZED cityHash64(name)', target),
    ).toEqual([
      {
        kind: 'sql',
        text: 'ALTER TABLE fd.events_local ON CLUSTER framedeck_alter ADD COLUMN h UInt64 MATERIALIZED cityHash64(name)',
      },
      { kind: 'sql', text: 'DROP TABLE IF EXISTS fd.events ON CLUSTER framedeck' },
      { kind: 'distributed', table: 'events' },
    ]);
  });

  it('renames the local tables in one statement and re-creates the Distributed tables for the new names', () => {
    expect(translateForCluster('RENAME TABLE events TO events_old,\n  events_next TO events', target)).toEqual([
      {
        kind: 'sql',
        text: 'RENAME TABLE fd.events_local TO fd.events_old_local, fd.events_next_local TO fd.events_local ON CLUSTER framedeck',
      },
      { kind: 'sql', text: 'DROP TABLE IF EXISTS fd.events ON CLUSTER framedeck' },
      { kind: 'sql', text: 'DROP TABLE IF EXISTS fd.events_next ON CLUSTER framedeck' },
      { kind: 'distributed', table: 'events_old' },
      { kind: 'distributed', table: 'events' },
    ]);
  });

  it('drops a table with its local table (a view has none: IF EXISTS makes that a no-op)', () => {
    expect(translateForCluster('DROP TABLE IF EXISTS player_days_mv', target)).toEqual([
      { kind: 'sql', text: 'DROP TABLE IF EXISTS fd.player_days_mv ON CLUSTER framedeck' },
      { kind: 'sql', text: 'DROP TABLE IF EXISTS fd.player_days_mv_local ON CLUSTER framedeck' },
    ]);
  });

  it('runs a backfill as written, through the Distributed tables, and refuses anything unknown', () => {
    const backfill = 'INSERT INTO player_days\nSELECT DISTINCT project_id FROM events';
    expect(translateForCluster(backfill, target)).toEqual([{ kind: 'sql', text: backfill }]);
    expect(() => translateForCluster('OPTIMIZE TABLE events FINAL', target)).toThrow(
      /no cluster translation for: OPTIMIZE TABLE events FINAL/,
    );
  });

  it('translates every statement of every legacy migration file', () => {
    const files = readdirSync(CLICKHOUSE_MIGRATIONS_DIR).filter((f) => f.endsWith('.sql') && !f.includes('.modern.'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      for (const statement of parseStatements(readFileSync(`${CLICKHOUSE_MIGRATIONS_DIR}/${file}`, 'utf8'))) {
        expect(
          () => translateForCluster(resolveViewOutputs(statement.text, 'legacy', target), target),
          file,
        ).not.toThrow();
      }
    }
  });
});

describe('the Distributed tables', () => {
  const eventsLocal =
    "CREATE TABLE fd.events_local ( project_id UUID,  event_id UUID,  name String,  timestamp DateTime,  name_hash UInt64 MATERIALIZED cityHash64(name)) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/{cluster}/tables/{shard}/fd/events_local', '{replica}') PARTITION BY toYYYYMM(timestamp) ORDER BY (project_id, toDate(timestamp), name, event_id) SETTINGS index_granularity = 8192";

  it('shard by a hash of the sorting key, so rows a ReplacingMergeTree collapses share a shard', () => {
    expect(distributedTableSql('events', eventsLocal, target)).toBe(
      'CREATE TABLE IF NOT EXISTS fd.events ON CLUSTER framedeck ( project_id UUID,  event_id UUID,  name String,  timestamp DateTime,  name_hash UInt64 ALIAS cityHash64(name)) ' +
        'ENGINE = Distributed(framedeck, fd, events_local, cityHash64(toString(project_id), toString(toDate(timestamp)), toString(name), toString(event_id)))',
    );
  });

  it("shard a table without a sorting key by its event ids' batch when it has them", () => {
    expect(shardingKey({ columns: ' project_id UUID,  event_id UUID', engine: 'Null' })).toBe(
      'cityHash64(substring(toString(event_id), 1, 28))',
    );
    expect(shardingKey({ columns: ' project_id UUID', engine: 'Null' })).toBe('rand()');
    expect(
      shardingKey({ columns: '', engine: 'ReplacingMergeTree ORDER BY name SETTINGS index_granularity = 8192' }),
    ).toBe('cityHash64(toString(name))');
  });

  it('split key lists at top-level commas only', () => {
    expect(splitTopLevel("a, f(b, c), 'x,y', d")).toEqual(['a', 'f(b, c)', "'x,y'", 'd']);
  });
});
