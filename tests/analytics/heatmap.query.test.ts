import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseReader, createClickHouseWriter, sql, type ClickHouseReader } from '@framedeck/clickhouse';
import { queryHeatmap, reportedQuantile, type HeatmapQuery } from '@framedeck/analytics';
import { testConfig } from '../support/stack.js';
import { ARENA_BOUNDS } from './api-helpers.js';
import { daysBefore, insertEvents, NOW, type FixtureEvent } from './event-fixtures.js';
import { recordingClient } from './recording-client.js';

const clickhouse = createClickHouseWriter(testConfig.clickhouse);
const projectId = randomUUID();
const otherProject = randomUUID();
const MB = 1_048_576;
const bounds = ARENA_BOUNDS;

// Hand-computed: cellSize 25 gives an 8 × 2 grid; cell = floor((v - min) / 25), clamped to the last cell.
const at = daysBefore(1);
const base = { projectId, mapId: 'arena', at } satisfies Partial<FixtureEvent>;
const fixture: FixtureEvent[] = [
  // cell (0, 0), centre (-87.5, 12.5)
  { ...base, eventName: 'kill', position: [-100, 0], fps: 60, frameTimeMs: 16, memoryBytes: 100 * MB },
  { ...base, eventName: 'kill', position: [-76, 24.9], fps: 30, frameTimeMs: 32, memoryBytes: 200 * MB },
  { ...base, eventName: 'kill', position: [-90, 5] }, // no frame sample: Events mode only
  // on the max corner: clamped into cell (7, 1), centre (87.5, 37.5)
  { ...base, eventName: 'kill', position: [100, 50], fps: 20, frameTimeMs: 50, memoryBytes: 512 * MB, gpuTimeMs: 10 },
  // cell (4, 1), centre (12.5, 37.5): frame time and GPU only
  { ...base, eventName: 'frame', position: [0, 25], frameTimeMs: 10, gpuTimeMs: 4, buildId: '2.0.0' },
  // excluded: outside the bounds, no position, another map, another project, too old
  { ...base, eventName: 'kill', position: [101, 10], fps: 60, frameTimeMs: 16 },
  { ...base, eventName: 'kill', fps: 60, frameTimeMs: 16 },
  { ...base, mapId: 'other', eventName: 'kill', position: [0, 0], fps: 60, frameTimeMs: 16 },
  { ...base, projectId: otherProject, eventName: 'kill', position: [0, 0], fps: 60, frameTimeMs: 16 },
  { ...base, at: daysBefore(8), eventName: 'kill', position: [0, 0], fps: 60, frameTimeMs: 16 },
];

beforeAll(async () => {
  await insertEvents(clickhouse, fixture);
});
afterAll(async () => {
  await clickhouse.close();
});

const query = (extra: Partial<HeatmapQuery> = {}, reader: ClickHouseReader = clickhouse) =>
  queryHeatmap(reader, { projectId, mapId: 'arena', bounds, cellSize: 25, days: 7, now: NOW, ...extra });

describe('heatmap cells', () => {
  it('Performance mode: cells of frame samples with centres, averages, nulls and frame-time weight', async () => {
    const cells = await query();
    expect(cells).toEqual([
      {
        x: -87.5,
        y: 12.5,
        event_count: 2,
        avg_fps: 45,
        avg_frame_time: 24,
        avg_memory: 150,
        avg_gpu_time: null,
        p95_frame_time: reportedQuantile(32), // nearest rank of {16, 32}
        p99_frame_time: reportedQuantile(32),
        hitch_share_33ms: 0, // 32 ms is within the 33.3 ms budget
        hitch_share_50ms: 0,
        weight: expect.closeTo(24 / 50, 9),
      },
      {
        x: 12.5,
        y: 37.5,
        event_count: 1,
        avg_fps: 0,
        avg_frame_time: 10,
        avg_memory: 0,
        avg_gpu_time: 4,
        p95_frame_time: reportedQuantile(10),
        p99_frame_time: reportedQuantile(10),
        hitch_share_33ms: 0,
        hitch_share_50ms: 0,
        weight: expect.closeTo(10 / 50, 9),
      },
      {
        x: 87.5,
        y: 37.5,
        event_count: 1,
        avg_fps: 20,
        avg_frame_time: 50,
        avg_memory: 512,
        avg_gpu_time: 10,
        p95_frame_time: reportedQuantile(50),
        p99_frame_time: reportedQuantile(50),
        hitch_share_33ms: 1, // 50 ms is over 33.3 ms...
        hitch_share_50ms: 0, // ...but not over 50 ms
        weight: 1,
      },
    ]);
  });

  it('Events mode: only the named events, weight by event count', async () => {
    const cells = await query({ eventName: 'kill' });
    expect(cells.map((c) => [c.x, c.y, c.event_count, c.weight])).toEqual([
      [-87.5, 12.5, 3, 1],
      [87.5, 37.5, 1, 1 / 3],
    ]);
    // the event without a frame sample does not drag the averages to 0
    expect(cells[0]!.avg_fps).toBe(45);
  });

  it('Performance mode without any frame time weighs by event count, on both sources', async () => {
    const fpsOnly = randomUUID();
    const sample = { projectId: fpsOnly, mapId: 'arena', at, fps: 50 };
    await insertEvents(clickhouse, [
      { ...sample, position: [-100, 0] },
      { ...sample, position: [-99, 1] },
      { ...sample, position: [-98, 2] },
      { ...sample, position: [-99, 3] },
      { ...sample, position: [0, 30] },
    ]);
    for (const source of ['rollups', 'events'] as const) {
      const cells = await queryHeatmap(
        clickhouse,
        { projectId: fpsOnly, mapId: 'arena', bounds, cellSize: 25, days: 7, now: NOW },
        source,
      );
      expect(
        cells.map((c) => [c.x, c.y, c.event_count, c.weight, c.avg_frame_time, c.avg_fps]),
        source,
      ).toEqual([
        [-87.5, 12.5, 4, 1, 0, 50],
        [12.5, 37.5, 1, 0.25, 0, 50],
      ]);
    }
  });

  it('centres of a wide grid: 200 cells along x, cells past 127 included, on both sources', async () => {
    const wide = randomUUID();
    const wideBounds = {
      worldMinX: 0,
      worldMinY: 0,
      worldMaxX: 1000,
      worldMaxY: 1000,
      worldMinZ: null,
      worldMaxZ: null,
    };
    await insertEvents(clickhouse, [
      { projectId: wide, mapId: 'wide', at, position: [3, 3], frameTimeMs: 10 },
      { projectId: wide, mapId: 'wide', at, position: [702, 3], frameTimeMs: 10 },
      { projectId: wide, mapId: 'wide', at, position: [1000, 999], frameTimeMs: 10 },
    ]);
    for (const source of ['rollups', 'events'] as const) {
      const cells = await queryHeatmap(
        clickhouse,
        { projectId: wide, mapId: 'wide', bounds: wideBounds, cellSize: 5, days: 7, now: NOW },
        source,
      );
      expect(
        cells.map((c) => [c.x, c.y]),
        source,
      ).toEqual([
        [2.5, 2.5],
        [702.5, 2.5],
        [997.5, 997.5],
      ]);
    }
  });

  it('p99 and hitch shares: tails of 100 frame samples', async () => {
    const tails = randomUUID();
    // 89 frames of 10 ms, 7 of 40 ms (hitches over 33.3 ms), 4 of 60 ms (over 50 ms too): the
    // 95th and 99th values in order are 40 and 60 whichever rank convention.
    const frameTimes = [...Array<number>(89).fill(10), ...Array<number>(7).fill(40), ...Array<number>(4).fill(60)];
    await insertEvents(
      clickhouse,
      frameTimes.map((frameTimeMs) => ({ projectId: tails, mapId: 'arena', at, position: [0, 0], frameTimeMs })),
    );
    const [cell] = await queryHeatmap(clickhouse, {
      projectId: tails,
      mapId: 'arena',
      bounds,
      cellSize: 25,
      days: 7,
      now: NOW,
    });
    expect(cell).toMatchObject({
      p95_frame_time: reportedQuantile(40),
      p99_frame_time: reportedQuantile(60),
      hitch_share_33ms: 0.11,
      hitch_share_50ms: 0.04,
    });
  });

  it('averages are rounded to 0.001', async () => {
    const rounding = randomUUID();
    const sample = { projectId: rounding, mapId: 'arena', at, position: [0, 0] as [number, number], frameTimeMs: 10 };
    await insertEvents(clickhouse, [
      { ...sample, fps: 30, memoryBytes: MB },
      { ...sample, fps: 31, memoryBytes: MB },
      { ...sample, fps: 31, memoryBytes: 2 * MB },
    ]);
    const [cell] = await queryHeatmap(clickhouse, {
      projectId: rounding,
      mapId: 'arena',
      bounds,
      cellSize: 25,
      days: 7,
      now: NOW,
    });
    expect(cell!.avg_fps).toBe(30.667); // 92 / 3
    expect(cell!.avg_memory).toBe(1.333); // 4 MB / 3
  });

  it('a larger cell size regroups the same events', async () => {
    const cells = await query({ cellSize: 50 });
    expect(cells.map((c) => [c.x, c.y, c.event_count])).toEqual([
      [-75, 25, 2],
      [25, 25, 1],
      [75, 25, 1],
    ]);
  });

  it('days widens the window (the 8-day-old event appears with days=14 only)', async () => {
    const narrow = await query({ days: 7 });
    const wide = await query({ days: 14 });
    const total = (cells: { event_count: number }[]) => cells.reduce((s, c) => s + c.event_count, 0);
    expect(total(narrow)).toBe(4);
    expect(total(wide)).toBe(5);
  });

  it("buildId keeps only that build's events", async () => {
    const cells = await query({ buildId: '2.0.0' });
    expect(cells.map((c) => [c.x, c.y, c.event_count, c.avg_frame_time])).toEqual([[12.5, 37.5, 1, 10]]);
    expect(await query({ buildId: 'no-such-build' })).toEqual([]);
  });

  it('z bounds, when the map has them, exclude events above or below', async () => {
    const cells = await query({ bounds: { ...bounds, worldMinZ: 1, worldMaxZ: 10 } });
    expect(cells).toEqual([]);
  });

  it('a z slice keeps the events between zMin and zMax (either bound alone too), read from the events', async () => {
    const floors = randomUUID();
    const onFloor = (z: number, x: number): FixtureEvent => ({
      projectId: floors,
      mapId: 'arena',
      at,
      position: [x, 10, z],
      frameTimeMs: 10 + z,
    });
    await insertEvents(clickhouse, [onFloor(0, -90), onFloor(0, -90), onFloor(4.5, -90), onFloor(9, 60)]);
    const recorded = recordingClient(clickhouse);
    const cells = async (slice: Pick<HeatmapQuery, 'zMin' | 'zMax'>) =>
      (await query({ projectId: floors, ...slice }, recorded.client)).map((c) => [c.x, c.event_count]);
    expect(await cells({})).toEqual([
      [-87.5, 3],
      [62.5, 1],
    ]);
    expect(recorded.sent.splice(0).join('\n')).not.toContain('FROM events');
    expect(await cells({ zMin: 4.5 })).toEqual([
      [-87.5, 1],
      [62.5, 1],
    ]);
    expect(recorded.sent.splice(0).join('\n')).toContain('FROM events'); // the rollups keep no event's z
    expect(await cells({ zMax: 4.5 })).toEqual([[-87.5, 3]]);
    expect(await cells({ zMin: 1, zMax: 5 })).toEqual([[-87.5, 1]]);
    expect(await cells({ zMin: 0, zMax: 0 })).toEqual([[-87.5, 2]]);
    expect(await cells({ zMin: 10 })).toEqual([]);
  });

  it("the service's reader reads rollups through the uncompressed cache (READ_SETTINGS)", async () => {
    const reader = createClickHouseReader(testConfig.clickhouse);
    try {
      const setting = await reader.rows<{ value: string }>(
        sql`SELECT value FROM system.settings WHERE name = 'use_uncompressed_cache'`,
      );
      expect(setting).toEqual([{ value: '1' }]);
      // The server's counter (the admin reads it): a repeated heatmap finds its blocks there.
      const hits = async () =>
        Number(
          (
            await clickhouse.rows<{ hits: number }>(
              sql`SELECT sum(value) AS hits FROM system.events WHERE event = 'UncompressedCacheHits'`,
            )
          )[0]?.hits,
        );
      const before = await hits();
      const first = await query({ eventName: 'kill' }, reader);
      expect(await query({ eventName: 'kill' }, reader)).toEqual(first);
      expect(await hits()).toBeGreaterThan(before);
    } finally {
      await reader.close();
    }
  });

  it("the service's reader: JSON lines of a query that fails after its first megabytes are an error, not a cut answer", async () => {
    const reader = createClickHouseReader(testConfig.clickhouse);
    try {
      // Rows past the server's response buffer before the failure: without wait_end_of_query the
      // first blocks would already be on their way as a 200.
      const failingLate = sql`SELECT number, throwIf(number = 400000) AS failed FROM system.numbers LIMIT 500000`;
      await expect(reader.jsonLines(failingLate)).rejects.toThrow(/throwIf|FUNCTION_THROW_IF_VALUE_IS_NON_ZERO/i);
      const lines = await reader.jsonLines(sql`SELECT number FROM system.numbers LIMIT 3`);
      expect(lines.toString()).toBe('{"number":0}\n{"number":1}\n{"number":2}\n');
    } finally {
      await reader.close();
    }
  });

  it('an unknown map or project has no cells', async () => {
    expect(
      await queryHeatmap(clickhouse, {
        projectId: randomUUID(),
        mapId: 'arena',
        bounds,
        cellSize: 25,
        days: 7,
        now: NOW,
      }),
    ).toEqual([]);
  });
});
