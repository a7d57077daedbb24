import type { AlertMetric, ThresholdLevel } from './alert-rule.model.js';

/**
 * A threshold profile holds, per metric, a "good" and a "warn" limit.
 * - fps (higher is better): good ≥ fpsGood, acceptable ≥ fpsWarn, worse is bad.
 * - frame time, GPU time, p99 frame time (ms), memory (MB), hitch shares (% of frame samples)
 *   (lower is better): good ≤ …Good, acceptable ≤ …Warn.
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
  p99FrameTimeGoodMs: number;
  p99FrameTimeWarnMs: number;
  hitchShare33msGoodPercent: number;
  hitchShare33msWarnPercent: number;
  hitchShare50msGoodPercent: number;
  hitchShare50msWarnPercent: number;
};

/**
 * What every project starts with (seeded by migration 004 for existing projects and by a
 * trigger for new ones; the tail limits are migration 009's column defaults; keep both in step
 * with this object).
 * 60/30 fps and the matching 16.7/33.3 ms frame budgets; GPU time leaves headroom inside the
 * frame budget; memory fits 8 GB machines (good) and stays below 6 GB (warn). Tails: 1 frame in
 * 100 may miss the 30 fps budget (good) or the 20 fps one (warn); hitches over 33.3 ms are
 * rarely noticed below 1 % of frames and plainly felt above 5 %; over 50 ms, 0.5 % and 2 %.
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
  p99FrameTimeGoodMs: 33.3,
  p99FrameTimeWarnMs: 50,
  hitchShare33msGoodPercent: 1,
  hitchShare33msWarnPercent: 5,
  hitchShare50msGoodPercent: 0.5,
  hitchShare50msWarnPercent: 2,
};

/** Each metric's pair of limits in a profile. */
export const METRIC_LIMITS: Record<AlertMetric, { good: keyof ThresholdValues; warn: keyof ThresholdValues }> = {
  fps: { good: 'fpsGood', warn: 'fpsWarn' },
  frame_time: { good: 'frameTimeGoodMs', warn: 'frameTimeWarnMs' },
  gpu_time: { good: 'gpuTimeGoodMs', warn: 'gpuTimeWarnMs' },
  memory: { good: 'memoryGoodMb', warn: 'memoryWarnMb' },
  p99_frame_time: { good: 'p99FrameTimeGoodMs', warn: 'p99FrameTimeWarnMs' },
  hitch_share_33ms: { good: 'hitchShare33msGoodPercent', warn: 'hitchShare33msWarnPercent' },
  hitch_share_50ms: { good: 'hitchShare50msGoodPercent', warn: 'hitchShare50msWarnPercent' },
};

/** The limit a rule holds its cells to. */
export function thresholdFor(profile: ThresholdValues, metric: AlertMetric, level: ThresholdLevel): number {
  return profile[METRIC_LIMITS[metric][level]];
}
