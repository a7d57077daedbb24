import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseWriter } from '@framedeck/clickhouse';
import {
  HEATMAP_CELL_SIZES,
  HEATMAP_DAYS,
  compareBuilds,
  queryBuilds,
  type DimensionFilter,
  queryDashboard,
  queryHeatmap,
  queryWorstAreas,
  servedByRollup,
} from '@framedeck/analytics';
import { testConfig } from '../support/stack.js';
import { ARENA_BOUNDS } from './api-helpers.js';
import { insertEvents, NOW } from './event-fixtures.js';
import { randomTelemetry } from './random-telemetry.fixture.js';
import { namesTable, recordingClient } from './recording-client.js';

// Every answer the API serves from the rollups (clickhouse/007) equals the plain query over
// the raw events, on random telemetry (random-telemetry.fixture.ts) over 40 days. (Insights and
// status have their own checks; the ingest tests check that redelivered batches are rolled up
// once.)
const clickhouse = createClickHouseWriter(testConfig.clickhouse);
const projectId = randomUUID();
const bounds = ARENA_BOUNDS;

const fixture = randomTelemetry({ projectId, count: 3000, now: NOW, seed: 11 });

/** No filter, each dimension alone, and all three at once. */
const FILTERS: DimensionFilter[] = [
  {},
  { buildId: '1.1' },
  { platform: 'ps5' },
  { source: 'automated' },
  { source: 'player', platform: 'pc', buildId: '1.2' },
];

beforeAll(async () => {
  await insertEvents(clickhouse, fixture);
});
afterAll(async () => {
  await clickhouse.close();
});

describe('rollup-served answers equal the plain query over events', () => {
  it('heatmap cells: every cell size, range, mode and platform / build / source filter', async () => {
    expect(servedByRollup(bounds)).toBe(true);
    const recorded = recordingClient(clickhouse);
    let nonEmpty = 0;
    // Answers a filter changed: were filters ignored on both sides, the equality would still hold.
    let filteredDiffer = 0;
    for (const cellSize of HEATMAP_CELL_SIZES)
      for (const days of HEATMAP_DAYS)
        for (const eventName of [undefined, 'kill']) {
          let unfiltered = '';
          for (const filter of FILTERS) {
            const q = {
              projectId,
              mapId: 'arena',
              bounds,
              cellSize,
              days,
              eventName,
              ...filter,
              includeZ: true,
              now: NOW,
            };
            const fromRollup = await queryHeatmap(recorded.client, q, 'rollups');
            expect(fromRollup, JSON.stringify({ cellSize, days, eventName, filter })).toEqual(
              await queryHeatmap(clickhouse, q, 'events'),
            );
            if (fromRollup.length > 0) nonEmpty++;
            if (filter === FILTERS[0]) unfiltered = JSON.stringify(fromRollup);
            else if (JSON.stringify(fromRollup) !== unfiltered) filteredDiffer++;
          }
        }
    expect(nonEmpty).toBeGreaterThan(100);
    expect(filteredDiffer).toBeGreaterThan(100);
    expect(recorded.sent.every((text) => text.includes('rollup_heatmap_') && !text.includes('FROM events'))).toBe(true);
    // Each rollup answered its share (per cell size, 4 ranges): unfiltered views from the
    // coarsest overview of their mode whose grid tiles their cells (25/50 units from the 25-unit
    // overview, which holds both modes; 5/10-unit Performance from the 5-unit one; 5-unit Events
    // from the 5-unit Events overview, 10-unit Events from the 10-unit one), each its days before
    // the range's first Monday and its weeks from then on; filtered 25/50 from the 25-unit cells
    // (these bounds lie on that grid), 5/10 from the 5-unit cells.
    const served = (table: string) => recorded.sent.filter((text) => namesTable(text, table)).length;
    const views = 2 * 4;
    for (const [overview, cellSizes, modes] of [
      ['rollup_heatmap_overview_5', 2, 1],
      ['rollup_heatmap_overview_5_events', 1, 1],
      ['rollup_heatmap_overview_10_events', 1, 1],
      ['rollup_heatmap_overview_25', 2, 2],
    ] as const) {
      expect(served(overview), overview).toBe(cellSizes * 4 * modes);
      expect(served(`${overview}_weekly`), overview).toBe(cellSizes * 4 * modes);
    }
    expect(served('rollup_heatmap_cells_25')).toBe(views * 2 * (FILTERS.length - 1));
    expect(served('rollup_heatmap_cells')).toBe(views * 2 * (FILTERS.length - 1));
  });

  it('worst areas: every cell size, filter and minimum sample count, with the platform mix', async () => {
    const recorded = recordingClient(clickhouse);
    let ranked = 0;
    for (const cellSize of HEATMAP_CELL_SIZES)
      for (const days of [7, 30])
        for (const minSamples of [1, 10])
          for (const filter of FILTERS) {
            const q = { projectId, mapId: 'arena', bounds, cellSize, days, minSamples, limit: 50, ...filter, now: NOW };
            const fromRollup = await queryWorstAreas(recorded.client, q, 'rollups');
            expect(fromRollup, JSON.stringify(q)).toEqual(await queryWorstAreas(clickhouse, q, 'events'));
            for (const area of fromRollup) {
              expect(area.samples).toBeGreaterThanOrEqual(minSamples);
              expect(area.platforms.reduce((n, p) => n + p.samples, 0)).toBe(area.samples);
            }
            ranked += fromRollup.length;
          }
    expect(ranked).toBeGreaterThan(500);
    expect(recorded.sent.every((text) => text.includes('rollup_heatmap_') && !text.includes('FROM events'))).toBe(true);
  });

  it('heatmap cells of a map off the 5-unit grid come from the events', async () => {
    const offGrid = { ...bounds, worldMinX: -97.5 };
    expect(servedByRollup(offGrid)).toBe(false);
    const recorded = recordingClient(clickhouse);
    const cells = await queryHeatmap(recorded.client, {
      projectId,
      mapId: 'arena',
      bounds: offGrid,
      cellSize: 25,
      days: 30,
      now: NOW,
    });
    expect(cells.length).toBeGreaterThan(0);
    expect(recorded.sent.join('\n')).toContain('FROM events');
  });

  it('large heatmaps, counted in two bands of rows at once, equal the plain query', async () => {
    // The arena's events on a larger map: 400 × 250 cells of 5 units, 200 × 125 of 10, each of
    // them BANDED_HEATMAP_CELLS or more. The bands meet at y = 25 (5 units) and 30 (10 units),
    // inside the arena's 0..50.
    const large = { ...bounds, worldMinX: -1000, worldMaxX: 1000, worldMinY: -600, worldMaxY: 650 };
    const recorded = recordingClient(clickhouse);
    let split = 0;
    for (const [cellSize, edge] of [
      [5, 25],
      [10, 30],
    ] as const)
      for (const days of [7, 30])
        for (const eventName of [undefined, 'kill'])
          for (const filter of [{}, { platform: 'ps5' }]) {
            const q = { projectId, mapId: 'arena', bounds: large, cellSize, days, eventName, ...filter, now: NOW };
            const sent = recorded.sent.length;
            const banded = await queryHeatmap(recorded.client, q, 'rollups');
            expect(recorded.sent.length - sent, 'two bands').toBe(2);
            expect(banded, JSON.stringify(q)).toEqual(await queryHeatmap(clickhouse, q, 'events'));
            if (banded.some((cell) => cell.y < edge) && banded.some((cell) => cell.y > edge)) split++;
          }
    // Both bands held cells in all but the sparsest views (7 days of one name on one platform).
    expect(split).toBeGreaterThanOrEqual(14);
    // Each band a range of its grid's rows, after the rows' mode and filter (the grid's own
    // bounds come later, after the x ones).
    const band = /(= \d|= '[^']*') AND `cell_y(_10)?` (<|>=) \d+/;
    expect(recorded.sent.every((text) => band.test(text))).toBe(true);
  });

  it('builds list and comparison (overall and per map), with platform / build / source filters', async () => {
    for (const days of [7, 30, 90])
      for (const filter of FILTERS) {
        const list = { projectId, days, limit: 50, ...filter, now: NOW };
        const builds = await queryBuilds(clickhouse, list, 'rollups');
        expect(builds.length, JSON.stringify(list)).toBeGreaterThan(0);
        expect(builds, JSON.stringify(list)).toEqual(await queryBuilds(clickhouse, list, 'events'));
        const { platform, source } = filter;
        const compare = {
          projectId,
          base: '1.0',
          target: '1.2',
          days,
          thresholdPercent: 5,
          minSamples: 5,
          platform,
          source,
          now: NOW,
        };
        const fromRollup = await compareBuilds(clickhouse, compare, 'rollups');
        expect(fromRollup.maps.length, JSON.stringify(compare)).toBeGreaterThan(0);
        expect(fromRollup, JSON.stringify(compare)).toEqual(await compareBuilds(clickhouse, compare, 'events'));
      }
  });

  it('builds comparison reads rollup_build_stats once: the overall figures are the maps’ added up', async () => {
    const recorded = recordingClient(clickhouse);
    const compare = { projectId, base: '1.0', target: '1.2', days: 90, thresholdPercent: 5, minSamples: 5, now: NOW };
    const fromRollup = await compareBuilds(recorded.client, compare, 'rollups');
    expect(recorded.sent).toHaveLength(1);
    expect(recorded.sent[0]).toContain('FROM rollup_build_stats');
    expect(recorded.sent[0]).not.toContain('FROM events');
    // Both maps compared, and each side's overall samples are its maps' (the fixture's builds play both).
    expect(fromRollup.maps.map((m) => m.mapId)).toEqual(['arena', 'harbour']);
    for (const side of ['base', 'target'] as const)
      expect(fromRollup.overall[side].frame_time.samples).toBe(
        fromRollup.maps.reduce((sum, m) => sum + m[side].frame_time.samples, 0),
      );
  });

  it('dashboard: daily events, players, sessions, DAU and MAU', async () => {
    for (const days of [7, 30, 90]) {
      const q = { projectId, days, now: NOW };
      const fromRollup = await queryDashboard(clickhouse, q, 'rollups');
      expect(fromRollup.daily.length).toBeGreaterThan(0);
      expect(fromRollup).toEqual(await queryDashboard(clickhouse, q, 'events'));
    }
  });
});
