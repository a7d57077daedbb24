import type { ThresholdProfile } from '../api/alerts.api';

/**
 * The absolute colour scale of Performance mode: a cell is good, warn or bad by the limits of
 * the project's threshold profile (the limits the alert rules hold cells to), never by where its
 * value sits between the smallest and largest on screen. 59 fps is "warn" under a 60/30 profile
 * in every view, whatever the other cells hold.
 */
export type Band = 'good' | 'warn' | 'bad';

/** The profile members the performance metrics are judged by. */
export type ProfileLimitKey =
  | 'fps'
  | 'frameTimeMs'
  | 'memoryMb'
  | 'gpuTimeMs'
  | 'p99FrameTimeMs'
  | 'hitchShare33msPercent'
  | 'hitchShare50msPercent';

export type BandLimits = { good: number; warn: number; higherIsBetter: boolean };

export const BAND_COLOURS: Record<Band, [number, number, number]> = {
  good: [52, 211, 153], // green
  warn: [250, 204, 21], // yellow
  bad: [239, 68, 68], // red
};

export const BAND_LABELS: Record<Band, string> = { good: 'Good', warn: 'Warn', bad: 'Bad' };

export function bandLimits(profile: ThresholdProfile, key: ProfileLimitKey, higherIsBetter: boolean): BandLimits {
  return { ...profile[key], higherIsBetter };
}

/** The API's reading of a limit (threshold-profiles: "good at or above", "good at or below"): the limit itself passes. */
export function bandOf(value: number, limits: BandLimits): Band {
  const passes = (limit: number) => (limits.higherIsBetter ? value >= limit : value <= limit);
  if (passes(limits.good)) return 'good';
  if (passes(limits.warn)) return 'warn';
  return 'bad';
}

/** Each band's range in words, for the legend: "≥ 60", "30 – 60", "< 30" (fps); "≤ 16.7", "16.7 – 33.3", "> 33.3" (ms). */
export function bandRanges(limits: BandLimits, format: (n: number) => string): Record<Band, string> {
  const good = format(limits.good);
  const warn = format(limits.warn);
  return limits.higherIsBetter
    ? { good: `≥ ${good}`, warn: `${warn} – ${good}`, bad: `< ${warn}` }
    : { good: `≤ ${good}`, warn: `${good} – ${warn}`, bad: `> ${warn}` };
}

/** The profile a project's views are coloured by when none is chosen: its default one (the first as a fallback). */
export function defaultProfile(profiles: readonly ThresholdProfile[]): ThresholdProfile | undefined {
  return profiles.find((p) => p.isDefault) ?? profiles[0];
}
