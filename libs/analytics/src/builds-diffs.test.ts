import { describe, expect, it } from 'vitest';
import { buildMetricDiffs, isPerformanceMetricKey, type BuildComparison } from './builds.query.js';

const stats = (p50: number | null, p95: number | null) => ({
  samples: p50 === null ? 0 : 100,
  avg: p50,
  p50,
  p95,
  p99: p95,
});
const side = (frameP50: number) => ({
  fps: stats(null, null),
  frame_time: stats(frameP50, frameP50 * 2),
  memory: stats(1000, 1100),
  gpu_time: stats(null, null),
  game_thread: stats(null, null),
  render_thread: stats(null, null),
});

describe('perf-diff rows', () => {
  it('compares performance keys of the metrics map, not gameplay values', () => {
    expect(
      ['io.read_bytes', 'io.read_time_ms', 'mem.vram', 'load_time_ms', 'gpu.temp', 'shader_compile_ms'].every(
        isPerformanceMetricKey,
      ),
    ).toBe(true);
    expect(['price', 'score', 'coins', 'level'].some(isPerformanceMetricKey)).toBe(false);
  });

  it('gives p50, the p95 tail, the change in percent (null from a base of 0) and the regression flag', () => {
    const comparison = {
      thresholdPercent: 5,
      overall: { base: side(16), target: side(20) },
    } as unknown as Pick<BuildComparison, 'overall' | 'thresholdPercent'>;
    const values = new Map([
      ['io.read_ops', { base: { samples: 5, p50: 0, p95: 0, p99: 0 }, target: { samples: 5, p50: 3, p95: 4, p99: 4 } }],
      ['price', { base: { samples: 5, p50: 1.99, p95: 2, p99: 2 }, target: { samples: 5, p50: 4.99, p95: 5, p99: 5 } }],
    ]);
    const diffs = buildMetricDiffs(comparison, values);
    expect(diffs.find((d) => d.metric === 'frame_time')).toEqual({
      metric: 'frame_time',
      baselineP50: 16,
      candidateP50: 20,
      diffPct: 25,
      isRegression: true,
      baselineTail: 32,
      candidateTail: 40,
    });
    expect(diffs.find((d) => d.metric === 'memory')).toMatchObject({ diffPct: 0, isRegression: false });
    expect(diffs.find((d) => d.metric === 'gpu_time')).toMatchObject({ baselineP50: null, diffPct: null });
    expect(diffs.find((d) => d.metric === 'io.read_ops')).toMatchObject({
      baselineP50: 0,
      candidateP50: 3,
      diffPct: null,
    });
    expect(diffs.map((d) => d.metric)).not.toContain('price');
  });
});
