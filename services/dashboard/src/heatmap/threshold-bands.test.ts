import { describe, expect, it } from 'vitest';
import type { ThresholdProfile } from '../api/alerts.api';
import { bandLimits, bandOf, bandRanges, defaultProfile } from './threshold-bands';

const profile = (over: Partial<ThresholdProfile>): ThresholdProfile => ({
  id: 'p',
  name: 'Default',
  isDefault: false,
  fps: { good: 60, warn: 30 },
  frameTimeMs: { good: 16.7, warn: 33.3 },
  gpuTimeMs: { good: 14, warn: 28 },
  memoryMb: { good: 4096, warn: 6144 },
  p99FrameTimeMs: { good: 33.3, warn: 50 },
  hitchShare33msPercent: { good: 1, warn: 5 },
  hitchShare50msPercent: { good: 0.5, warn: 2 },
  platform: null,
  resolution: null,
  buildConfig: null,
  gpu: null,
  storage: null,
  createdAt: '2026-01-01T00:00:00Z',
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
