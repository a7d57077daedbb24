import { describe, expect, it } from 'vitest';
import { cellCentre, cellIndex, cellsAlong } from './heatmap.query.js';
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
