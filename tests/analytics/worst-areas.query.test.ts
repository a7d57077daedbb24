import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseWriter } from '@framedeck/clickhouse';
import { MIN_SAMPLES, queryWorstAreas, reportedQuantile, type WorstAreasQuery } from '@framedeck/analytics';
import { testConfig } from '../support/stack.js';
import { ARENA_BOUNDS } from './api-helpers.js';
import { daysBefore, insertEvents, NOW, type FixtureEvent } from './event-fixtures.js';
import { recordingClient } from './recording-client.js';

const clickhouse = createClickHouseWriter(testConfig.clickhouse);
const projectId = randomUUID();
const bounds = ARENA_BOUNDS;

/** n frame samples of one frame time at (x, y) on a platform (fps = 1000 / frame time). */
const frames = (n: number, x: number, y: number, frameTimeMs: number, platform: string): FixtureEvent[] =>
  Array.from({ length: n }, () => ({
    projectId,
    mapId: 'arena',
    at: daysBefore(1),
    position: [x, y],
    frameTimeMs,
    fps: 1000 / frameTimeMs,
    platform,
  }));

// Cells of 25 units, hand-ranked by nearest-rank value (reported as its log bucket, reportedQuantile).
const fixture: FixtureEvent[] = [
  // A (-87.5, 12.5): 20 PC frames of 10 ms, 20 Switch frames of 40 ms: p95 = p99 = 40, half hitches.
  ...frames(20, -90, 10, 10, 'pc'),
  ...frames(20, -90, 10, 40, 'switch'),
  // B (-62.5, 12.5): 40 frames of 20 ms: p95 20, last.
  ...frames(40, -65, 10, 20, 'pc'),
  // C (12.5, 12.5): 40 frames of 40 ms: ties A on p95, p99 and samples; after A by position.
  ...frames(40, 10, 10, 40, 'ps5'),
  // D (37.5, 12.5): 96 frames of 40 ms and 4 of 90 ms: p95 40 but p99 90, first.
  ...frames(96, 35, 10, 40, 'xbox'),
  ...frames(4, 35, 10, 90, 'pc'),
  // E (87.5, 37.5): 60 frames of 40 ms: ties A and C on p95 and p99, more samples.
  ...frames(60, 90, 40, 40, 'pc'),
  // F (-37.5, 37.5): 5 frames of 200 ms: the slowest, but too few samples by default.
  ...frames(5, -40, 30, 200, 'pc'),
  // G (-12.5, 37.5): fps without a frame time: no frame sample, never ranked.
  ...Array.from({ length: 40 }, (): FixtureEvent => ({
    projectId,
    mapId: 'arena',
    at: daysBefore(1),
    position: [-15, 30],
    fps: 10,
  })),
];

beforeAll(async () => {
  await insertEvents(clickhouse, fixture);
});
afterAll(async () => {
  await clickhouse.close();
});

const worst = (extra: Partial<WorstAreasQuery> = {}) =>
  queryWorstAreas(clickhouse, {
    projectId,
    mapId: 'arena',
    bounds,
    cellSize: 25,
    days: 7,
    minSamples: MIN_SAMPLES.default,
    limit: 10,
    now: NOW,
    ...extra,
  });
const positions = (areas: Array<{ x: number; y: number }>) => areas.map((a) => [a.x, a.y]);

describe('worst areas', () => {
  it('rank by p95, then p99, then samples, then position; cells under minSamples are left out', async () => {
    const areas = await worst();
    expect(positions(areas)).toEqual([
      [37.5, 12.5], // D: p99 90
      [87.5, 37.5], // E: 60 samples
      [-87.5, 12.5], // A: first by position…
      [12.5, 12.5], // …then C
      [-62.5, 12.5], // B: p95 20
    ]);
    expect(areas[2]).toEqual({
      x: -87.5,
      y: 12.5,
      samples: 40,
      p95_frame_time: reportedQuantile(40),
      p99_frame_time: reportedQuantile(40),
      hitch_share_33ms: 0.5,
      hitch_share_50ms: 0,
      avg_fps: 62.5, // (20 × 100 + 20 × 25) / 40
      platforms: [
        { platform: 'pc', samples: 20 },
        { platform: 'switch', samples: 20 },
      ],
    });
    expect(areas[0]).toMatchObject({
      samples: 100,
      p99_frame_time: reportedQuantile(90),
      hitch_share_50ms: 0.04,
      platforms: [
        { platform: 'xbox', samples: 96 },
        { platform: 'pc', samples: 4 },
      ],
    });
  });

  it('minSamples and limit', async () => {
    expect(positions(await worst({ minSamples: 5, limit: 2 }))).toEqual([
      [-37.5, 37.5], // F: 200 ms
      [37.5, 12.5],
    ]);
    expect(positions(await worst({ minSamples: 61 }))).toEqual([[37.5, 12.5]]);
  });

  it('filters: only those events are ranked and mixed', async () => {
    expect(await worst({ platform: 'switch' })).toEqual([]); // A's 20 Switch frames are under 30
    const [switchOnly, ...rest] = await worst({ platform: 'switch', minSamples: 20 });
    expect(rest).toEqual([]);
    expect(switchOnly).toMatchObject({ x: -87.5, samples: 20, platforms: [{ platform: 'switch', samples: 20 }] });
    expect(await worst({ source: 'automated' })).toEqual([]);
    expect(positions(await worst({ source: 'player', limit: 1 }))).toEqual([[37.5, 12.5]]);
  });

  it('served from the cell rollup, equal to the events', async () => {
    const recorded = recordingClient(clickhouse);
    const q = { projectId, mapId: 'arena', bounds, cellSize: 25, days: 7, minSamples: 5, limit: 50, now: NOW };
    const fromRollup = await queryWorstAreas(recorded.client, q, 'rollups');
    expect(fromRollup).toHaveLength(6);
    expect(fromRollup).toEqual(await queryWorstAreas(clickhouse, q, 'events'));
    expect(recorded.sent.every((text) => text.includes('rollup_heatmap_') && !text.includes('FROM events'))).toBe(true);
    // Unfiltered, the ranking reads the overview (as the heatmap does), the platform mix the cells by platform.
    expect(recorded.sent.map((text) => /rollup_heatmap_\w+/.exec(text)?.[0])).toEqual([
      'rollup_heatmap_overview_25',
      'rollup_heatmap_cells_25',
    ]);
  });
});
