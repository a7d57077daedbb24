import { describe, expect, it } from 'vitest';
import { criticalZ, normalQuantile, testCell, type StratumStats } from './cell-regression.js';

const rule = { confidence: 0.95, thresholdPercent: 5, minSamples: 20 };
const strata = (entries: Record<string, StratumStats>) => new Map(Object.entries(entries));

describe('normalQuantile / criticalZ', () => {
  it('matches the standard normal table', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 5);
    expect(criticalZ(0.95, 1)).toBeCloseTo(1.959964, 5);
    // Bonferroni: 100 tests at 95 % → each at 99.95 %.
    expect(criticalZ(0.95, 100)).toBeCloseTo(normalQuantile(1 - 0.05 / 200), 9);
  });
});

describe('testCell', () => {
  const z = criticalZ(0.95, 10);

  it('flags a clear, large slowdown as worse and a speed-up as better', () => {
    const base = strata({ pc: { samples: 400, mean: 14, variance: 4 } });
    expect(testCell(base, strata({ pc: { samples: 400, mean: 18.2, variance: 4 } }), rule, z).verdict).toBe('worse');
    expect(testCell(base, strata({ pc: { samples: 400, mean: 10, variance: 4 } }), rule, z).verdict).toBe('better');
  });

  it('calls a change below the practical threshold unchanged, however significant', () => {
    const base = strata({ pc: { samples: 1e6, mean: 14, variance: 4 } });
    const result = testCell(base, strata({ pc: { samples: 1e6, mean: 14.5, variance: 4 } }), rule, z);
    expect(result.z!).toBeGreaterThan(100);
    expect(result.verdict).toBe('unchanged');
  });

  it('calls a large but noisy change on few samples unchanged', () => {
    const base = strata({ pc: { samples: 25, mean: 14, variance: 400 } });
    expect(testCell(base, strata({ pc: { samples: 25, mean: 18, variance: 400 } }), rule, z).verdict).toBe('unchanged');
  });

  it('is insufficient below minSamples on either side, and ignores platforms only one build has', () => {
    const base = strata({
      pc: { samples: 19, mean: 14, variance: 1 },
      switch: { samples: 500, mean: 33, variance: 1 },
    });
    const target = strata({
      pc: { samples: 500, mean: 30, variance: 1 },
      ps5: { samples: 500, mean: 50, variance: 1 },
    });
    expect(testCell(base, target, rule, z)).toMatchObject({ verdict: 'insufficient', platforms: [] });
  });

  it('a different platform mix with identical per-platform frame times is unchanged', () => {
    // Base mostly PC (fast), target mostly Switch (slow): the pooled mean would rise by ~80 %.
    const base = strata({
      pc: { samples: 900, mean: 10, variance: 4 },
      switch: { samples: 100, mean: 33, variance: 9 },
    });
    const target = strata({
      pc: { samples: 100, mean: 10, variance: 4 },
      switch: { samples: 900, mean: 33, variance: 9 },
    });
    expect(testCell(base, target, rule, z)).toMatchObject({
      verdict: 'unchanged',
      deltaMs: 0,
      platforms: ['pc', 'switch'],
    });
  });
});
