import { describe, expect, it } from 'vitest';
import type { EvaluationCell } from './cell-evaluation.js';
import { evaluateProfileBundle, type BundledProfile } from './profile-bundle.js';
import { DEFAULT_THRESHOLD_PROFILE } from './threshold-profile.model.js';

const cell = (x: number, avgFps: number): EvaluationCell => ({
  x,
  y: 0,
  eventCount: 10,
  avgFps,
  avgFrameTimeMs: null,
  avgMemoryMb: null,
  avgGpuTimeMs: null,
  p99FrameTimeMs: null,
  hitchShare33msPercent: null,
  hitchShare50msPercent: null,
});
const profile = (id: string, fpsWarn: number): BundledProfile => ({
  id,
  thresholds: { ...DEFAULT_THRESHOLD_PROFILE, fpsGood: Math.max(60, fpsWarn), fpsWarn },
});
// Four cells at 25, 35, 45 and 70 fps.
const cells = [cell(0, 25), cell(1, 35), cell(2, 45), cell(3, 70)];
const criteria = { metric: 'fps', thresholdLevel: 'warn', failPercentage: 50 } as const;

describe('a rule with several threshold profiles', () => {
  it('is decided by the primary profile alone when it has one', () => {
    const outcome = evaluateProfileBundle(cells, [profile('console', 30)], criteria);
    expect(outcome).toMatchObject({ profileId: 'console', threshold: 30 });
    expect(outcome.result).toMatchObject({ status: 'resolved', failingCells: 1, totalCells: 4 });
  });

  it('triggers when any profile triggers, and reports that profile and its limit', () => {
    // console (warn 30): 1 of 4 fail (resolved); pc (warn 50): 3 of 4 fail (triggered).
    const outcome = evaluateProfileBundle(cells, [profile('console', 30), profile('pc', 50)], criteria);
    expect(outcome).toMatchObject({ profileId: 'pc', threshold: 50 });
    expect(outcome.result).toMatchObject({ status: 'triggered', failingCells: 3, failingPercentage: 75 });
  });

  it('among triggered profiles reports the one with the larger failing share, whatever the order', () => {
    const outcome = evaluateProfileBundle(cells, [profile('mid', 40), profile('high', 50)], criteria);
    expect(outcome.profileId).toBe('high');
    expect(evaluateProfileBundle(cells, [profile('high', 50), profile('mid', 40)], criteria).profileId).toBe('high');
  });

  it('stays resolved when no profile triggers, reported against the worst one', () => {
    const outcome = evaluateProfileBundle(cells, [profile('low', 20), profile('console', 30)], criteria);
    expect(outcome).toMatchObject({ profileId: 'console', result: { status: 'resolved', failingCells: 1 } });
  });

  it('keeps the primary profile on a tie', () => {
    expect(evaluateProfileBundle(cells, [profile('a', 30), profile('b', 30)], criteria).profileId).toBe('a');
  });

  it('refuses an empty bundle', () => {
    expect(() => evaluateProfileBundle(cells, [], criteria)).toThrow(/at least one/);
  });
});
