import { describe, expect, it } from 'vitest';
import { evaluateCells, type EvaluationCell } from './cell-evaluation.js';
import { DEFAULT_THRESHOLD_PROFILE, thresholdFor } from './threshold-profile.model.js';

const cell = (x: number, y: number, values: Partial<EvaluationCell> = {}): EvaluationCell => ({
  x,
  y,
  eventCount: 10,
  avgFps: 60,
  avgFrameTimeMs: 16,
  avgMemoryMb: 2000,
  avgGpuTimeMs: null,
  p99FrameTimeMs: null,
  hitchShare33msPercent: null,
  hitchShare50msPercent: null,
  ...values,
});

// A 2×5 fixture map: four cells under 30 fps, one between 30 and 60, five smooth ones.
const FIXTURE: EvaluationCell[] = [
  cell(12.5, 12.5, { avgFps: 12, avgFrameTimeMs: 83 }),
  cell(37.5, 12.5, { avgFps: 20, avgFrameTimeMs: 50 }),
  cell(62.5, 12.5, { avgFps: 25, avgFrameTimeMs: 40, eventCount: 3 }),
  cell(87.5, 12.5, { avgFps: 25, avgFrameTimeMs: 40, eventCount: 7 }),
  cell(112.5, 12.5, { avgFps: 45, avgFrameTimeMs: 22 }),
  cell(12.5, 37.5, { avgFps: 60 }),
  cell(37.5, 37.5, { avgFps: 90 }),
  cell(62.5, 37.5, { avgFps: 120 }),
  cell(87.5, 37.5, { avgFps: 75 }),
  cell(112.5, 37.5, { avgFps: 61 }),
];

describe('evaluateCells', () => {
  it('counts cells worse than the warn limit and triggers at the fail percentage', () => {
    const threshold = thresholdFor(DEFAULT_THRESHOLD_PROFILE, 'fps', 'warn');
    expect(threshold).toBe(30);
    const result = evaluateCells(FIXTURE, { metric: 'fps', threshold, failPercentage: 40 });
    expect(result).toMatchObject({ status: 'triggered', failingCells: 4, totalCells: 10, failingPercentage: 40 });
    // 40 % failing is exactly the limit: triggered; one point more is not reached.
    expect(evaluateCells(FIXTURE, { metric: 'fps', threshold, failPercentage: 41 }).status).toBe('resolved');
  });

  it('holds cells to the good limit at level "good"; a value at the limit passes', () => {
    const threshold = thresholdFor(DEFAULT_THRESHOLD_PROFILE, 'fps', 'good');
    const result = evaluateCells(FIXTURE, { metric: 'fps', threshold, failPercentage: 50 });
    // 12, 20, 25, 25, 45 are below 60; the cell at exactly 60 is good.
    expect(result).toMatchObject({ status: 'triggered', failingCells: 5, totalCells: 10 });
  });

  it('treats lower-is-better metrics the other way round', () => {
    const threshold = thresholdFor(DEFAULT_THRESHOLD_PROFILE, 'frame_time', 'warn');
    expect(threshold).toBe(33.3);
    const result = evaluateCells(FIXTURE, { metric: 'frame_time', threshold, failPercentage: 100 });
    expect(result).toMatchObject({ status: 'resolved', failingCells: 4, totalCells: 10 });
    expect(result.worstCells.map((c) => c.value)).toEqual([83, 50, 40, 40, 22]);
  });

  it('names the worst cells first, ties broken by the busier cell', () => {
    const result = evaluateCells(FIXTURE, { metric: 'fps', threshold: 30, failPercentage: 10 });
    expect(result.worstCells).toEqual([
      { x: 12.5, y: 12.5, value: 12, eventCount: 10, failing: true },
      { x: 37.5, y: 12.5, value: 20, eventCount: 10, failing: true },
      { x: 87.5, y: 12.5, value: 25, eventCount: 7, failing: true },
      { x: 62.5, y: 12.5, value: 25, eventCount: 3, failing: true },
      { x: 112.5, y: 12.5, value: 45, eventCount: 10, failing: false },
    ]);
  });

  it('counts only cells with samples of the metric (GPU time is often missing)', () => {
    const cells = [
      cell(0, 0, { avgGpuTimeMs: 40 }),
      cell(1, 0, { avgGpuTimeMs: 10 }),
      cell(2, 0, { avgGpuTimeMs: null }),
      cell(3, 0, { avgGpuTimeMs: null }),
      cell(4, 0, { avgGpuTimeMs: Number.NaN }),
    ];
    const result = evaluateCells(cells, { metric: 'gpu_time', threshold: 28, failPercentage: 50 });
    expect(result).toMatchObject({ status: 'triggered', failingCells: 1, totalCells: 2, failingPercentage: 50 });
  });

  it('is resolved with zero cells when there is no data', () => {
    expect(evaluateCells([], { metric: 'memory', threshold: 6144, failPercentage: 1 })).toEqual({
      status: 'resolved',
      failingCells: 0,
      totalCells: 0,
      failingPercentage: 0,
      worstCells: [],
    });
    const empty = [cell(0, 0, { eventCount: 0, avgMemoryMb: 9000 })];
    expect(evaluateCells(empty, { metric: 'memory', threshold: 6144, failPercentage: 1 }).totalCells).toBe(0);
  });

  it('accepts fractional fail percentages', () => {
    const cells = Array.from({ length: 1000 }, (_, i) => cell(i, 0, { avgMemoryMb: i < 5 ? 7000 : 1000 }));
    expect(evaluateCells(cells, { metric: 'memory', threshold: 6144, failPercentage: 0.5 }).status).toBe('triggered');
    expect(evaluateCells(cells, { metric: 'memory', threshold: 6144, failPercentage: 1 }).status).toBe('resolved');
  });

  it('holds the tails to their limits: p99 frame time in ms, hitch shares in percent, 0 % a measurement', () => {
    const tails = [
      cell(0, 0, { p99FrameTimeMs: 80, hitchShare33msPercent: 12, hitchShare50msPercent: 0 }),
      cell(1, 0, { p99FrameTimeMs: 20, hitchShare33msPercent: 0, hitchShare50msPercent: 0 }),
      cell(2, 0, { p99FrameTimeMs: null, hitchShare33msPercent: null, hitchShare50msPercent: null }),
    ];
    const at = (metric: 'p99_frame_time' | 'hitch_share_33ms' | 'hitch_share_50ms') =>
      evaluateCells(tails, {
        metric,
        threshold: thresholdFor(DEFAULT_THRESHOLD_PROFILE, metric, 'warn'),
        failPercentage: 50,
      });
    expect(at('p99_frame_time')).toMatchObject({ status: 'triggered', failingCells: 1, totalCells: 2 });
    expect(at('hitch_share_33ms')).toMatchObject({ status: 'triggered', failingCells: 1, totalCells: 2 });
    expect(at('hitch_share_33ms').worstCells.map((c) => c.value)).toEqual([12, 0]);
    expect(at('hitch_share_50ms')).toMatchObject({ status: 'resolved', failingCells: 0, totalCells: 2 });
  });
});
