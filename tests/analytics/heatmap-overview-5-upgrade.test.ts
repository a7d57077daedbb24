import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateClickHouse, type ClickHouseWriter } from '@framedeck/clickhouse';
import { HEATMAP_DAYS, queryHeatmap } from '@framedeck/analytics';
import { ownClickHouseDatabase, type OwnDatabase } from '../support/own-database.js';
import { ARENA_BOUNDS } from './api-helpers.js';
import { insertEvents } from './event-fixtures.js';
import { randomTelemetry } from './random-telemetry.fixture.js';
import { recordingClient } from './recording-client.js';

// clickhouse/030 adds the 5-unit Performance overview (daily and weekly rows) and fills it from
// the stored 5-unit cells. This upgrades a database migrated up to 029 that holds events, inserts
// more after the upgrade (they reach the overview through its views), and requires every
// unfiltered 5- and 10-unit Performance heatmap, now read from the overview, to equal the plain
// query over events.
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

describe('030 on a database with heatmap events', () => {
  it('serves unfiltered 5- and 10-unit Performance heatmaps from the filled overview, equal to the events', async () => {
    const recorded = recordingClient(clickhouse);
    let cells = 0;
    for (const cellSize of [5, 10])
      for (const days of HEATMAP_DAYS) {
        const q = { projectId, mapId: 'arena', bounds: ARENA_BOUNDS, cellSize, days, includeZ: true, now };
        const fromRollup = await queryHeatmap(recorded.client, q, 'rollups');
        expect(fromRollup, JSON.stringify({ cellSize, days })).toEqual(await queryHeatmap(clickhouse, q, 'events'));
        cells += fromRollup.length;
      }
    expect(cells).toBeGreaterThan(200);
    expect(recorded.sent.every((text) => /\brollup_heatmap_overview_5\b/.test(text))).toBe(true);
    expect(recorded.sent.every((text) => /\brollup_heatmap_overview_5_weekly\b/.test(text))).toBe(true);
  });
});
