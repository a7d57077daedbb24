import type { AlertMetric, ThresholdLevel } from './alert-rule.model.js';

/**
 * A threshold profile holds, per metric, a "good" and a "warn" limit.
 * - fps (higher is better): good ≥ fpsGood, acceptable ≥ fpsWarn, worse is bad.
 * - frame time, GPU time (ms), memory (MB) (lower is better): good ≤ …Good, acceptable ≤ …Warn.
 * A rule's thresholdLevel picks the limit a cell is held to: "good" = a cell fails as soon as it
 * is worse than the good limit (strict), "warn" = it fails only when worse than the warn limit.
 */
export type ThresholdValues = {
  fpsGood: number;
  fpsWarn: number;
  frameTimeGoodMs: number;
  frameTimeWarnMs: number;
  gpuTimeGoodMs: number;
  gpuTimeWarnMs: number;
  memoryGoodMb: number;
  memoryWarnMb: number;
};

/**
 * What every project starts with (seeded by migration 004 for existing projects and by a
 * trigger for new ones; keep both in step with this object).
 * 60/30 fps and the matching 16.7/33.3 ms frame budgets; GPU time leaves headroom inside the
 * frame budget; memory fits 8 GB machines (good) and stays below 6 GB (warn).
 */
export const DEFAULT_THRESHOLD_PROFILE: { name: string } & ThresholdValues = {
  name: 'Default',
  fpsGood: 60,
  fpsWarn: 30,
  frameTimeGoodMs: 16.7,
  frameTimeWarnMs: 33.3,
  gpuTimeGoodMs: 14,
  gpuTimeWarnMs: 28,
  memoryGoodMb: 4096,
  memoryWarnMb: 6144,
};

/** The limit a rule holds its cells to. */
export function thresholdFor(profile: ThresholdValues, metric: AlertMetric, level: ThresholdLevel): number {
  const good = level === 'good';
  switch (metric) {
    case 'fps':
      return good ? profile.fpsGood : profile.fpsWarn;
    case 'frame_time':
      return good ? profile.frameTimeGoodMs : profile.frameTimeWarnMs;
    case 'gpu_time':
      return good ? profile.gpuTimeGoodMs : profile.gpuTimeWarnMs;
    case 'memory':
      return good ? profile.memoryGoodMb : profile.memoryWarnMb;
  }
}
