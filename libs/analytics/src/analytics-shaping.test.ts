import { describe, expect, it } from 'vitest';
import { cellCentre, cellIndex, cellsAlong, toCells } from './heatmap.query.js';
import { toSteps } from './funnels.query.js';
import { toCohorts } from './retention.query.js';

describe('heatmap grid maths', () => {
  it('cell = floor((v − min) / size); a point on the max edge falls in the last cell', () => {
    expect(cellsAlong(-100, 100, 25)).toBe(8);
    expect(cellsAlong(0, 7, 5)).toBe(2); // partial last cell
    expect(cellIndex(-100, -100, 100, 25)).toBe(0);
    expect(cellIndex(-75.01, -100, 100, 25)).toBe(0);
    expect(cellIndex(-75, -100, 100, 25)).toBe(1);
    expect(cellIndex(100, -100, 100, 25)).toBe(7);
    expect(cellCentre(0, -100, 25)).toBe(-87.5);
    expect(cellCentre(7, -100, 25)).toBe(87.5);
  });

  it('weights: by event count in Events mode, by frame time in Performance mode, 0..1', () => {
    const rows = [
      {
        cell: 0,
        event_count: 4,
        avg_fps: 60,
        avg_frame_time: 10,
        avg_memory: 1,
        avg_gpu_time: null,
        p95_frame_time: 12,
        p99_frame_time: 12,
        hitch_share_33ms: 0,
        hitch_share_50ms: 0,
        z_min: 0,
        z_max: 0,
      },
      {
        cell: 12, // cx 2, cy 1 on a 10 × 10 grid
        event_count: 1,
        avg_fps: 20,
        avg_frame_time: 40,
        avg_memory: 1,
        avg_gpu_time: 3,
        p95_frame_time: 40,
        p99_frame_time: 40,
        hitch_share_33ms: 1,
        hitch_share_50ms: 0,
        z_min: 0,
        z_max: 0,
      },
    ];
    const q = {
      bounds: { worldMinX: 0, worldMinY: 0, worldMaxX: 100, worldMaxY: 100, worldMinZ: null, worldMaxZ: null },
      cellSize: 10,
    };
    expect(toCells(rows, { ...q, eventName: 'kill' }).map((c) => c.weight)).toEqual([1, 0.25]);
    expect(toCells(rows, q).map((c) => c.weight)).toEqual([0.25, 1]);
    expect(toCells(rows, q)[0]).toMatchObject({ x: 5, y: 5, avg_gpu_time: null });
    expect(toCells(rows, q)[1]).toMatchObject({ x: 25, y: 15 });
  });
});

describe('funnel steps', () => {
  it('an entity that reached level L counts at every step up to L', () => {
    const steps = toSteps(
      ['a', 'b', 'c'],
      [
        { level: 1, entities: 5 },
        { level: 3, entities: 5 },
      ],
    );
    expect(steps.map((s) => [s.count, s.conversion, s.conversionFromPrevious])).toEqual([
      [10, 1, 1],
      [5, 0.5, 0.5],
      [5, 0.5, 1],
    ]);
  });

  it('nobody entered: zero conversions, not NaN', () => {
    expect(toSteps(['a', 'b'], []).map((s) => [s.count, s.conversion, s.conversionFromPrevious])).toEqual([
      [0, 0, 0],
      [0, 0, 0],
    ]);
  });
});

describe('retention cohorts', () => {
  it('missing N are 0 when the period has begun, null when it has not', () => {
    const cohorts = toCohorts(
      [
        { cohort: '2026-03-16', cohort_num: 100, n: 0, players: 4 },
        { cohort: '2026-03-16', cohort_num: 100, n: 2, players: 1 },
      ],
      3,
      102,
    );
    expect(cohorts).toEqual([{ cohort: '2026-03-16', size: 4, retained: [4, 0, 1, null], rates: [1, 0, 0.25, null] }]);
  });
});
