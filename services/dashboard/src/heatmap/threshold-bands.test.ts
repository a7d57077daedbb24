import { describe, expect, it } from 'vitest';
import type { ThresholdProfile } from '../api/alerts.api';
import { bandLimits, bandOf, bandRanges, defaultProfile } from './threshold-bands';

const limits = (good: number, warn: number) => ({ good, warn });
// The hardware a profile is meant for: any (the bands do not read it).
const ANY_HARDWARE = { platform: null, resolution: null, buildConfig: null, gpu: null, storage: null };

/** A profile with the API's default limits, `over` replacing any member. */
const profile = (over: Partial<ThresholdProfile>): ThresholdProfile => ({
  id: 'p',
  name: 'Default',
  isDefault: false,
  createdAt: '2026-01-01T00:00:00Z',
  fps: limits(60, 30),
  frameTimeMs: limits(16.7, 33.3),
  gpuTimeMs: limits(14, 28),
  memoryMb: limits(4096, 6144),
  p99FrameTimeMs: limits(33.3, 50),
  hitchShare33msPercent: limits(1, 5),
  hitchShare50msPercent: limits(0.5, 2),
  ...ANY_HARDWARE,
  ...over,
});

describe('threshold bands', () => {
  it('bands fps (higher is better) as the API reads the profile: the limit itself passes', () => {
    const fps = bandLimits(profile({}), 'fps', true);
    expect([90, 60, 59, 30, 29.9].map((v) => bandOf(v, fps))).toEqual(['good', 'good', 'warn', 'warn', 'bad']);
  });

  it('bands frame time (lower is better) the other way round', () => {
    const ms = bandLimits(profile({}), 'frameTimeMs', false);
    expect([10, 16.7, 16.8, 33.3, 40].map((v) => bandOf(v, ms))).toEqual(['good', 'good', 'warn', 'warn', 'bad']);
  });

  it('states each band’s range for the legend', () => {
    expect(bandRanges(bandLimits(profile({}), 'fps', true), String)).toEqual({
      good: '≥ 60',
      warn: '30 – 60',
      bad: '< 30',
    });
    expect(bandRanges(bandLimits(profile({}), 'frameTimeMs', false), String)).toEqual({
      good: '≤ 16.7',
      warn: '16.7 – 33.3',
      bad: '> 33.3',
    });
  });

  it('colours by the project’s default profile unless another is chosen', () => {
    const chosen = profile({ id: 'd', isDefault: true });
    expect(defaultProfile([profile({ id: 'a' }), chosen])).toBe(chosen);
    expect(defaultProfile([profile({ id: 'a' })])?.id).toBe('a');
    expect(defaultProfile([])).toBeUndefined();
  });
});
