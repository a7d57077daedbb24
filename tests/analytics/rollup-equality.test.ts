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
import { insertEvents, NOW, type FixtureEvent } from './event-fixtures.js';
import { recordingClient } from './recording-client.js';

// Every answer the API serves from the rollups (clickhouse/007) equals the plain query over
// the raw events, on random telemetry: positions anywhere (on grid lines, on the map's edges
// and outside it), events with and without frame samples, several builds, platforms, names
// and maps, over 40 days. (Insights and status have their own checks; the ingest tests check
// that redelivered batches are rolled up once.)
const clickhouse = createClickHouseWriter(testConfig.clickhouse);
const projectId = randomUUID();
const bounds = ARENA_BOUNDS;

let seed = 11;
const next = (n: number) => Math.floor(((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * n);
const pick = <T>(xs: readonly T[]): T => xs[next(xs.length)]!;
/** A coordinate: often exactly on a grid line or an edge (the rollup's hard cases), else anywhere around the map. */
const coordinate = (min: number, max: number) =>
  pick([min, max, min + 5 * next((max - min) / 5 + 1), min - 3 + next((max - min + 6) * 100) / 100]);

const fixture: FixtureEvent[] = Array.from({ length: 3000 }, () => {
  const sample = next(5) !== 0;
  return {
    projectId,
    eventName: pick(['frame', 'kill', 'death', 'loot']),
    at: new Date(NOW.getTime() - next(40 * 86_400) * 1000 + 36 * 3_600_000 * (next(20) === 0 ? 1 : 0)),
    playerId: next(8) === 0 ? undefined : `p${next(60)}`,
    sessionId: `s${next(200)}`,
    mapId: pick(['arena', 'arena', 'harbour']),
    position: next(10) === 0 ? undefined : [coordinate(-100, 100), coordinate(0, 50), next(30)],
    fps: sample && next(4) !== 0 ? 20 + next(100) : undefined,
    frameTimeMs: sample ? 5 + next(600) / 10 : undefined,
    memoryBytes: next(3) === 0 ? undefined : (500 + next(3000)) * 1_048_576,
    gpuTimeMs: next(2) === 0 ? undefined : 1 + next(200) / 10,
    gameThreadMs: next(2) === 0 ? undefined : 2 + next(100) / 10,
    renderThreadMs: next(2) === 0 ? undefined : 2 + next(100) / 10,
    buildId: pick(['1.0', '1.1', '1.2', '']),
    platform: pick(['pc', 'ps5', 'switch', '']),
    source: pick(['player', 'player', 'automated', 'unspecified'] as const),
  };
});

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
    // Each rollup answered its share: unfiltered 25/50-unit views from the overview (its days
    // before the range's first Monday and its weeks from then on), filtered 25/50 from the
    // 25-unit cells (these bounds lie on that grid), 5/10 from the 5-unit cells.
    const served = (table: string) => recorded.sent.filter((text) => new RegExp(`\\b${table}\\b`).test(text)).length;
    expect(served('rollup_heatmap_overview_25')).toBe(2 * 4 * 2);
    expect(served('rollup_heatmap_overview_25_weekly')).toBe(2 * 4 * 2);
    expect(served('rollup_heatmap_cells_25')).toBe(2 * 4 * 2 * (FILTERS.length - 1));
    expect(served('rollup_heatmap_cells')).toBe(2 * 4 * 2 * FILTERS.length);
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
