import { describe, expect, it } from 'vitest';
import { compareStats, type MetricStats } from './builds.verdict.js';

const stats = (avg: number, samples = 100): MetricStats => ({ samples, avg, p50: avg, p95: avg * 1.5, p99: avg * 2 });
const rule = { thresholdPercent: 5, minSamples: 30 };

describe('build comparison verdict', () => {
  it('higher-is-better metrics: a rise beyond the threshold is better, a fall worse', () => {
    expect(compareStats(stats(60), stats(66), { ...rule, higherIsBetter: true }).verdict).toBe('better');
    expect(compareStats(stats(60), stats(54), { ...rule, higherIsBetter: true }).verdict).toBe('worse');
  });

  it('lower-is-better metrics: the opposite', () => {
    expect(compareStats(stats(16), stats(20), { ...rule, higherIsBetter: false }).verdict).toBe('worse');
    expect(compareStats(stats(16), stats(12), { ...rule, higherIsBetter: false }).verdict).toBe('better');
  });

  it('changes within the noise threshold are unchanged (the threshold itself included)', () => {
    expect(compareStats(stats(100), stats(105), { ...rule, higherIsBetter: true }).verdict).toBe('unchanged');
    expect(compareStats(stats(100), stats(95.5), { ...rule, higherIsBetter: true }).verdict).toBe('unchanged');
  });

  it('deltas are target − base for every statistic, percent of the base mean', () => {
    const c = compareStats(stats(10), stats(12), { ...rule, higherIsBetter: false });
    expect(c.delta).toEqual({ avg: 2, p50: 2, p95: 3, p99: 4 });
    expect(c.deltaPercent).toBeCloseTo(20, 9);
  });

  it('no verdict without enough samples on both sides, or without a base mean', () => {
    expect(compareStats(stats(60, 29), stats(30), { ...rule, higherIsBetter: true }).verdict).toBeNull();
    const empty: MetricStats = { samples: 0, avg: null, p50: null, p95: null, p99: null };
    const c = compareStats(empty, stats(30), { ...rule, higherIsBetter: true });
    expect(c).toEqual({ delta: { avg: null, p50: null, p95: null, p99: null }, deltaPercent: null, verdict: null });
  });
});
