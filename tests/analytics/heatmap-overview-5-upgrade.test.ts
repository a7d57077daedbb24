import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateClickHouse, type ClickHouseWriter } from '@framedeck/clickhouse';
import { HEATMAP_DAYS, queryHeatmap } from '@framedeck/analytics';
import { ownClickHouseDatabase, type OwnDatabase } from '../support/own-database.js';
import { ARENA_BOUNDS } from './api-helpers.js';
import { insertEvents } from './event-fixtures.js';
import { RANDOM_TELEMETRY_NAMES, randomTelemetry } from './random-telemetry.fixture.js';
import { namesTable, recordingClient } from './recording-client.js';

// clickhouse/030 and 031 add the 5-unit overviews of Performance and Events mode (daily and weekly
// rows each) and fill them from the stored 5-unit cells. This upgrades a database migrated up to
// 029 that holds events, inserts more after the upgrade (they reach the overviews through their
// views), and requires every unfiltered 5- and 10-unit heatmap of either mode, now read from its
// overview, to equal the plain query over events.
// Dates are recent: a modern server's TTL would expire rows dated at the fixtures' NOW.
let database: OwnDatabase | undefined;
let clickhouse: ClickHouseWriter;
const projectId = randomUUID();
const now = new Date();

beforeAll(async () => {
  database = await ownClickHouseDatabase('upgrade030', { migratedBefore: 30 });
  clickhouse = database.writer;
  await insertEvents(clickhouse, randomTelemetry({ projectId, count: 1500, now, seed: 5 }));
  await migrateClickHouse(clickhouse);
  await insertEvents(clickhouse, randomTelemetry({ projectId, count: 500, now, seed: 7 }));
});

afterAll(async () => {
  await database?.drop();
});

/** Performance mode (no name) and Events mode for each of the fixture's names, with the tables that serve them. */
const MODES = [
  { eventName: undefined, tables: ['rollup_heatmap_overview_5', 'rollup_heatmap_overview_5_weekly'] },
  ...RANDOM_TELEMETRY_NAMES.map((eventName) => ({
    eventName,
    tables: ['rollup_heatmap_overview_5_events', 'rollup_heatmap_overview_5_events_weekly'],
  })),
];

describe('030 and 031 on a database with heatmap events', () => {
  it.each(MODES)(
    'serves unfiltered 5- and 10-unit heatmaps ($eventName) from the filled overview, equal to the events',
    async ({ eventName, tables }) => {
      const recorded = recordingClient(clickhouse);
      let cells = 0;
      for (const cellSize of [5, 10])
        for (const days of HEATMAP_DAYS) {
          const q = { projectId, mapId: 'arena', bounds: ARENA_BOUNDS, cellSize, days, eventName, includeZ: true, now };
          const fromRollup = await queryHeatmap(recorded.client, q, 'rollups');
          expect(fromRollup, JSON.stringify({ cellSize, days })).toEqual(await queryHeatmap(clickhouse, q, 'events'));
          cells += fromRollup.length;
        }
      expect(cells).toBeGreaterThan(eventName === undefined ? 200 : 50);
      for (const table of tables) expect(recorded.sent.every((text) => namesTable(text, table))).toBe(true);
    },
  );
});
