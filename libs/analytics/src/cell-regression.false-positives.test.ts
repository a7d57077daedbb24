import { describe, expect, it } from 'vitest';
import { criticalZ, designEffect, testCell, type SessionGroupSums, type StratumStats } from './cell-regression.js';

// The false-positive rate of the per-cell test on identical builds, measured by simulation:
// maps of 64 cells where base and target draw their frame samples from the same distribution,
// compared as builds/compare does (Bonferroni over the cells tested, 95 %, 5 % practical
// threshold, 30 samples minimum). The rates are the ones docs/analytics.md quotes.

const MAPS = 300;
const CELLS = 64;
const PLATFORMS = [
  { name: 'pc', meanMs: 9 },
  { name: 'switch', meanMs: 30 },
];
const RULE = { confidence: 0.95, thresholdPercent: 5, minSamples: 30 };

/** A small seeded PRNG (mulberry32), so the measured rates are the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(next: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

const emptySums = (): SessionGroupSums => ({
  frames: 0,
  groups: 0,
  cells: 0,
  withinSquares: 0,
  betweenSquares: 0,
  sizeSquaresOverCellFrames: 0,
  sizeSquares: 0,
});

/**
 * One build's frame samples of one platform in one cell, summarised as the rollup keeps them,
 * and added to the platform's session-group sums as the comparison's query computes them.
 * Frame times are log-normal around the platform's mean (σ 0.25); samples come from sessions
 * leaving `perSession` samples in the cell, each session with a slowdown of its own (σ 10 %:
 * a player's settings, the scene at that moment), which makes a session's samples correlated.
 */
function stratum(
  next: () => number,
  meanMs: number,
  samples: number,
  perSession: number,
  sums: SessionGroupSums,
): StratumStats {
  let sum = 0;
  let sumOfSquares = 0;
  const groups: { factor: number; n: number; sum: number; squares: number }[] = [];
  for (let i = 0; i < samples; i++) {
    if (i % perSession === 0) groups.push({ factor: Math.exp(0.1 * gaussian(next)), n: 0, sum: 0, squares: 0 });
    const group = groups.at(-1)!;
    const ms = meanMs * group.factor * Math.exp(0.25 * gaussian(next) - 0.03125);
    group.n++;
    group.sum += ms;
    group.squares += ms * ms;
    sum += ms;
    sumOfSquares += ms * ms;
  }
  const mean = sum / samples;
  sums.frames += samples;
  sums.groups += groups.length;
  sums.cells += 1;
  for (const g of groups) {
    sums.withinSquares += g.squares - (g.sum * g.sum) / g.n;
    sums.betweenSquares += (g.sum * g.sum) / g.n;
    sums.sizeSquaresOverCellFrames += (g.n * g.n) / samples;
    sums.sizeSquares += g.n * g.n;
  }
  sums.betweenSquares -= (sum * sum) / samples;
  return { samples, mean, variance: (sumOfSquares - samples * mean * mean) / (samples - 1) };
}

/**
 * Share of maps with at least one cell flagged, and of cells flagged, over identical builds;
 * `corrected`: with each platform's design effect estimated from the map's samples.
 */
function falsePositiveRates(perSession: number, corrected: boolean, seed: number) {
  const next = random(seed);
  const zCritical = criticalZ(RULE.confidence, CELLS);
  let mapsFlagged = 0;
  let cellsFlagged = 0;
  const effects: number[] = [];
  for (let m = 0; m < MAPS; m++) {
    const sums = new Map(PLATFORMS.map((p) => [p.name, emptySums()]));
    const build = () =>
      new Map(
        PLATFORMS.map((p) => [
          p.name,
          stratum(next, p.meanMs, 40 + Math.floor(next() * 160), perSession, sums.get(p.name)!),
        ]),
      );
    const cells = Array.from({ length: CELLS }, () => ({ base: build(), target: build() }));
    const designEffects = new Map([...sums].map(([platform, s]) => [platform, corrected ? designEffect(s) : 1]));
    effects.push(...designEffects.values());
    const flagged = cells.filter(
      (c) => testCell(c.base, c.target, RULE, zCritical, designEffects).verdict !== 'unchanged',
    ).length;
    cellsFlagged += flagged;
    if (flagged > 0) mapsFlagged++;
  }
  const meanEffect = effects.reduce((a, b) => a + b, 0) / effects.length;
  return { maps: mapsFlagged / MAPS, cells: cellsFlagged / (MAPS * CELLS), meanDesignEffect: meanEffect };
}

describe('per-cell build comparison on identical builds (simulated false-positive rate)', () => {
  it('independent samples: Bonferroni keeps maps with any flagged cell near 1 − confidence', () => {
    const rates = falsePositiveRates(1, true, 1);
    console.info('one sample per session:', rates);
    // 5 % expected at most; 300 maps give a standard error of ~1.3 points.
    expect(rates.maps).toBeLessThanOrEqual(0.09);
    expect(rates.meanDesignEffect).toBe(1);
  });

  it.each([3, 10])(
    'sessions leaving %i samples in a cell: flagged without the design effect, calibrated with it',
    (n) => {
      const naive = falsePositiveRates(n, false, 10 + n);
      const corrected = falsePositiveRates(n, true, 10 + n);
      console.info(`${n} samples per session, Welch alone:`, naive, 'with the design effect:', corrected);
      expect(naive.maps).toBeGreaterThan(0.12);
      expect(corrected.maps).toBeLessThanOrEqual(0.09);
      expect(corrected.meanDesignEffect).toBeGreaterThan(1);
    },
  );
});
