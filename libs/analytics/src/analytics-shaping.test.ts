import { describe, expect, it } from 'vitest';
import { cellCentre, cellIndex, cellsAlong, withWeights } from './heatmap.query.js';
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
});

describe('heatmap weights (withWeights)', () => {
  // Lines as heatmapCellsSql has ClickHouse write them: the weight holds avg_frame_time.
  const lines = (...rows: [frameTime: number, count: number][]) =>
    Buffer.from(rows.map(([f, n], i) => `{"weight":${f},"event_count":${n},"x":${i},"s":"é"}\n`).join(''));
  const weigh = (text: Buffer, by: 'frameTime' | 'count') =>
    (JSON.parse(withWeights(text, by).toString('latin1')) as { weight: number; event_count: number; x: number }[]).map(
      (c) => [c.weight, c.event_count, c.x],
    );

  it('Performance mode: avg_frame_time / the largest, the rest of each line kept', () => {
    expect(weigh(lines([10, 4], [40, 1], [0, 9]), 'frameTime')).toEqual([
      [0.25, 4, 0],
      [1, 1, 1],
      [0, 9, 2],
    ]);
  });

  it('Events mode, or no cell with a frame time: event_count / the largest', () => {
    expect(weigh(lines([10, 4], [40, 1]), 'count')).toEqual([
      [1, 4, 0],
      [0.25, 1, 1],
    ]);
    expect(weigh(lines([0, 4], [0, 1]), 'frameTime')).toEqual([
      [1, 4, 0],
      [0.25, 1, 1],
    ]);
  });

  it('a line longer than the head it is read from is copied whole, byte for byte', () => {
    const tail = `"p95_frame_time":20.5,"note":"${'é'.repeat(200)}"`;
    const line = Buffer.from(`{"weight":16.5,"event_count":3,${tail}}\n{"weight":33,"event_count":1,${tail}}\n`);
    const cells = JSON.parse(withWeights(line, 'frameTime').toString('utf8')) as { weight: number; note: string }[];
    expect(cells.map((c) => c.weight)).toEqual([0.5, 1]);
    expect(cells.map((c) => c.note)).toEqual(['é'.repeat(200), 'é'.repeat(200)]);
  });

  it('no cells: an empty array; a line not shaped by heatmapCellsSql is an error', () => {
    expect(withWeights(Buffer.alloc(0), 'count').toString()).toBe('[]');
    expect(() => withWeights(Buffer.from('{"event_count":1,"weight":2}\n'), 'count')).toThrow(/not a heatmap row/);
    expect(() => withWeights(Buffer.from('{"weight":1,"event_count":"1","x":0}\n'), 'count')).toThrow(
      /not a heatmap row/,
    );
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
