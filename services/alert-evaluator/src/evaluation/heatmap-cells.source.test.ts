import { describe, expect, it } from 'vitest';
import type { ClickHouseReader } from '@framedeck/clickhouse';
import { heatmapCellSource } from './heatmap-cells.source.js';

describe('heatmapCellSource', () => {
  it('turns the heatmap\'s "0 = no sample" averages into null and hitch shares into percent', async () => {
    // One grid cell as ClickHouse writes the heatmap's rows (libs/analytics heatmapCellsSql: the
    // weight's inputs first, fps and GPU time never sampled there; 1 frame in 8 over 33.3 ms,
    // none over 50 ms: 0 is a measurement, not "no data").
    const line = {
      weight: 20,
      event_count: 4,
      x: 12.5,
      y: 37.5,
      avg_fps: 0,
      avg_frame_time: 20,
      avg_memory: 512,
      avg_gpu_time: null,
      p95_frame_time: 38,
      p99_frame_time: 41.5,
      hitch_share_33ms: 0.125,
      hitch_share_50ms: 0,
    };
    const clickhouse = {
      jsonLines: async () => Buffer.from(`${JSON.stringify(line)}\n`),
    } as unknown as ClickHouseReader;
    const cells = await heatmapCellSource(clickhouse)({
      projectId: '0b7c4f3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f',
      mapId: 'dust',
      bounds: { worldMinX: 0, worldMinY: 0, worldMaxX: 100, worldMaxY: 50, worldMinZ: null, worldMaxZ: null },
      cellSize: 25,
      days: 7,
      now: new Date('2026-03-18T12:00:00Z'),
    });
    expect(cells).toEqual([
      {
        x: 12.5,
        y: 37.5,
        eventCount: 4,
        avgFps: null,
        avgFrameTimeMs: 20,
        avgMemoryMb: 512,
        avgGpuTimeMs: null,
        p99FrameTimeMs: 41.5,
        hitchShare33msPercent: 12.5,
        hitchShare50msPercent: 0,
      },
    ]);
  });
});
