import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifier, sql, type ClickHouseWriter } from '@framedeck/clickhouse';
import { ownClickHouseDatabase, type OwnDatabase } from '../support/own-database.js';
import { DAY, insertEvents } from './event-fixtures.js';

// Every MergeTree table stays readable and mergeable once the server loads it again from the
// definition it stored, as after a restart. 18.16 stored `AggregateFunction(sumWithOverflow,
// UInt32)` as `sum`, and after a restart failed every merge of rollup_project_days on the
// 4-byte states its view had written (fixed by clickhouse/021). DETACH + ATTACH re-reads the
// stored definition as a restart does; it runs on a database of its own, as no other test may
// insert into a detached table.
let database: OwnDatabase | undefined;
let clickhouse: ClickHouseWriter;

beforeAll(async () => {
  database = await ownClickHouseDatabase('reload');
  clickhouse = database.writer;
});
afterAll(async () => {
  await database?.drop();
});

describe('tables reloaded from their stored definitions', () => {
  it('read every column and merge, for every table the views fill', async () => {
    const projectId = randomUUID();
    // Two inserts: two parts per table, for the merge to merge.
    for (const batch of [0, 1]) {
      await insertEvents(
        clickhouse,
        Array.from({ length: 50 }, (_, i) => ({
          projectId,
          playerId: `p${i % 7}`,
          sessionId: `s${batch}-${i % 3}`,
          eventName: ['spawn', 'frame'][i % 2],
          // Recent: a modern server's TTL would expire rows dated at the fixtures' NOW.
          at: new Date(Date.now() - (1 + batch) * DAY),
          position: [i, i, 0] as [number, number, number],
          fps: 60,
          frameTimeMs: 16 + (i % 5),
        })),
      );
    }
    const tables = await clickhouse.rows<{ name: string }>(
      sql`SELECT name FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree' ORDER BY name`,
    );
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['rollup_project_days', 'rollup_event_player_sketches']),
    );
    const filled: string[] = [];
    for (const { name } of tables) {
      const table = identifier(name);
      await clickhouse.command(sql`DETACH TABLE ${table}`);
      await clickhouse.command(sql`ATTACH TABLE ${table}`);
      // Every column read (not only those a query names), then the parts merged.
      const [row] = await clickhouse.rows<{ n: number }>(sql`SELECT count() AS n FROM (SELECT * FROM ${table})`);
      await clickhouse.command(sql`OPTIMIZE TABLE ${table} FINAL`);
      if (Number(row?.n) > 0) filled.push(name);
    }
    // The views did fill the tables under test (an empty table has nothing to misread).
    expect(filled).toEqual(expect.arrayContaining(['rollup_project_days', 'rollup_heatmap_cells', 'funnel_steps']));
  });
});
