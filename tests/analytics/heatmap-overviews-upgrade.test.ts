import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateClickHouse, sql, type ClickHouseWriter } from '@framedeck/clickhouse';
import { HEATMAP_DAYS, queryHeatmap } from '@framedeck/analytics';
import { ownClickHouseDatabase, type OwnDatabase } from '../support/own-database.js';
import { ARENA_BOUNDS } from './api-helpers.js';
import { insertEvents } from './event-fixtures.js';
import { RANDOM_TELEMETRY_NAMES, randomTelemetry } from './random-telemetry.fixture.js';
import { namesTable, recordingClient } from './recording-client.js';

// The heatmap overviews are added to databases that already hold events, or rebuilt there, by
// their migrations: clickhouse/030 and 031 (the 5-unit overviews of Performance and Events mode,
// filled from the stored 5-unit cells), 033 (the 10-unit Events overview, filled from 031's rows)
// and 037 and 039 (the 25-unit overview and the 10-unit Events overview copied into 1,024-row
// granules and swapped in by name). Each case upgrades a database migrated up to the first of them
// that holds events, inserts more after the upgrade (they reach the overviews through their views:
// after the swaps, only if the views write to the new tables), and requires every unfiltered 5-,
// 10- and 25-unit heatmap of either mode, read from its overview, to equal the plain query over
// events.
// Dates are recent: a modern server's TTL would expire rows dated at the fixtures' NOW.

/** The overview (daily and weekly tables) an unfiltered heatmap of this cell size and mode reads. */
function overviewOf(cellSize: number, eventName: string | undefined): string[] {
  const table =
    cellSize === 25
      ? OVERVIEW_25
      : eventName === undefined
        ? 'rollup_heatmap_overview_5'
        : cellSize === 10
          ? OVERVIEW_10_EVENTS
          : 'rollup_heatmap_overview_5_events';
  return [table, `${table}_weekly`];
}

/** Both modes' 25-unit overview: the default heatmaps' (037 gives it small granules). */
const OVERVIEW_25 = 'rollup_heatmap_overview_25';
/** The 10-unit Events overview (033; 039 gives it small granules). */
const OVERVIEW_10_EVENTS = 'rollup_heatmap_overview_10_events';

/** Performance mode (no name) and Events mode for each of the fixture's names. */
const MODES = [{ eventName: undefined }, ...RANDOM_TELEMETRY_NAMES.map((eventName) => ({ eventName }))];

describe.each([
  { migrations: '030, 031 and 033', migratedBefore: 30 },
  { migrations: '033 and 037', migratedBefore: 33 },
  { migrations: '037 and 039', migratedBefore: 37 },
])('$migrations on a database with heatmap events', ({ migratedBefore }) => {
  let database: OwnDatabase | undefined;
  let clickhouse: ClickHouseWriter;
  const projectId = randomUUID();
  const now = new Date();

  beforeAll(async () => {
    database = await ownClickHouseDatabase(`upgrade${migratedBefore}`, { migratedBefore });
    clickhouse = database.writer;
    await insertEvents(clickhouse, randomTelemetry({ projectId, count: 1500, now, seed: 5 }));
    await migrateClickHouse(clickhouse);
    await insertEvents(clickhouse, randomTelemetry({ projectId, count: 500, now, seed: 7 }));
  });

  afterAll(async () => {
    await database?.drop();
  });

  it.each(MODES)(
    'serves unfiltered 5-, 10- and 25-unit heatmaps ($eventName) from the upgraded overviews, equal to the events',
    async ({ eventName }) => {
      let cells = 0;
      for (const cellSize of [5, 10, 25]) {
        const recorded = recordingClient(clickhouse);
        for (const days of HEATMAP_DAYS) {
          const q = { projectId, mapId: 'arena', bounds: ARENA_BOUNDS, cellSize, days, eventName, includeZ: true, now };
          const fromRollup = await queryHeatmap(recorded.client, q, 'rollups');
          expect(fromRollup, JSON.stringify({ cellSize, days })).toEqual(await queryHeatmap(clickhouse, q, 'events'));
          cells += fromRollup.length;
        }
        for (const table of overviewOf(cellSize, eventName)) {
          expect(recorded.sent.every((text) => namesTable(text, table))).toBe(true);
        }
      }
      expect(cells).toBeGreaterThan(eventName === undefined ? 200 : 50);
    },
  );

  it.each([OVERVIEW_25, OVERVIEW_10_EVENTS])(
    'keeps %s in 1,024-row granules, with no table of the swap left over',
    async (overview) => {
      const tables = await clickhouse.rows<{ name: string; engine_full: string }>(
        sql`SELECT name, engine_full FROM system.tables
             WHERE database = currentDatabase() AND name LIKE ${`${overview}%`} AND engine LIKE '%MergeTree'
             ORDER BY name`,
      );
      expect(tables.map((t) => t.name)).toEqual([overview, `${overview}_weekly`]);
      for (const table of tables) expect(table.engine_full, table.name).toMatch(/index_granularity = 1024\b/);
    },
  );
});
