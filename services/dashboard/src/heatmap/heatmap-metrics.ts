import type { HeatmapCell } from '../api/heatmap.api';
import type { ProfileLimitKey } from './threshold-bands';

/** What a heatmap can be coloured by: the four performance metrics, or event counts. */
export type HeatmapMetric =
  'fps' | 'frame_time' | 'memory' | 'gpu_time' | 'p99_frame_time' | 'hitch_share_33ms' | 'hitch_share_50ms' | 'events';

export type MetricInfo = {
  label: string;
  unit: string;
  /** Which end of the scale is good: colours run from good (cool) to bad (hot). */
  higherIsBetter: boolean;
  /** A count, not a measurement: neither end is good, the colours only show where more happened. */
  density?: true;
  digits: number;
  value: (cell: HeatmapCell) => number | null;
  /** Performance metrics: the threshold profile's limits the cells are banded by. */
  limits?: ProfileLimitKey;
};

// NOTE: the API reports 0 for "not collected" on fps/frame time/memory and null for GPU time:
// both mean "no sample" here, so such cells are left undrawn rather than shown as perfect.
const positive = (v: number | null) => (v !== null && v > 0 ? v : null);
// A hitch share is a 0..1 share, null without frame samples; 0 is a real (perfect) value. Shown
// in percent, as the threshold profile's hitch limits are.
const percent = (v: number | null) => (v === null ? null : v * 100);

export const HEATMAP_METRICS: Record<HeatmapMetric, MetricInfo> = {
  fps: {
    label: 'FPS',
    unit: 'fps',
    higherIsBetter: true,
    digits: 1,
    value: (c) => positive(c.avg_fps),
    limits: 'fps',
  },
  frame_time: {
    label: 'Frame time',
    unit: 'ms',
    higherIsBetter: false,
    digits: 2,
    value: (c) => positive(c.avg_frame_time),
    limits: 'frameTimeMs',
  },
  memory: {
    label: 'Memory',
    unit: 'MB',
    higherIsBetter: false,
    digits: 0,
    value: (c) => positive(c.avg_memory),
    limits: 'memoryMb',
  },
  gpu_time: {
    label: 'GPU time',
    unit: 'ms',
    higherIsBetter: false,
    digits: 2,
    value: (c) => positive(c.avg_gpu_time),
    limits: 'gpuTimeMs',
  },
  p99_frame_time: {
    label: 'P99 frame time',
    unit: 'ms',
    higherIsBetter: false,
    digits: 2,
    value: (c) => positive(c.p99_frame_time),
    limits: 'p99FrameTimeMs',
  },
  hitch_share_33ms: {
    label: 'Hitches > 33.3 ms',
    unit: '%',
    higherIsBetter: false,
    digits: 1,
    value: (c) => percent(c.hitch_share_33ms),
    limits: 'hitchShare33msPercent',
  },
  hitch_share_50ms: {
    label: 'Hitches > 50 ms',
    unit: '%',
    higherIsBetter: false,
    digits: 1,
    value: (c) => percent(c.hitch_share_50ms),
    limits: 'hitchShare50msPercent',
  },
  events: {
    label: 'Events',
    unit: 'events',
    higherIsBetter: false,
    density: true,
    digits: 0,
    value: (c) => c.event_count,
  },
};

/** The metrics Performance mode offers: the alert rules' metrics (a rule's link opens on its own). */
export const PERFORMANCE_METRICS: HeatmapMetric[] = [
  'fps',
  'frame_time',
  'memory',
  'gpu_time',
  'p99_frame_time',
  'hitch_share_33ms',
  'hitch_share_50ms',
];

export type ScaleDomain = { min: number; max: number };

/** The legend's range: the smallest and largest value among the cells that have one. */
export function domainOf(cells: readonly HeatmapCell[], metric: MetricInfo): ScaleDomain | undefined {
  let min = Infinity;
  let max = -Infinity;
  for (const cell of cells) {
    const v = metric.value(cell);
    if (v === null || !Number.isFinite(v)) continue;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return min <= max ? { min, max } : undefined;
}

/** 0 (good end) … 1 (bad end) of a value within the domain. */
export function badness(value: number, domain: ScaleDomain, higherIsBetter: boolean): number {
  const span = domain.max - domain.min;
  const t = span > 0 ? (value - domain.min) / span : 0.5;
  const clamped = Math.min(1, Math.max(0, t));
  return higherIsBetter ? 1 - clamped : clamped;
}

// A perceptually ordered ramp (cool → hot), readable on the dark map backgrounds.
const RAMP: [number, number, number][] = [
  [49, 130, 206], // blue
  [34, 211, 238], // cyan
  [52, 211, 153], // green
  [250, 204, 21], // yellow
  [249, 115, 22], // orange
  [239, 68, 68], // red
];

/** The ramp colour at t ∈ [0, 1] as [r, g, b]. */
export function rampColor(t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, t)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(x));
  const f = x - i;
  const a = RAMP[i]!;
  const b = RAMP[i + 1]!;
  return [0, 1, 2].map((k) => Math.round(a[k]! + (b[k]! - a[k]!) * f)) as [number, number, number];
}

/**
 * CSS gradient of the legend bar, low values on the left: reversed when high values are the
 * good end (FPS), so each value sits above the colour its cells are drawn in.
 */
export function legendGradient(higherIsBetter: boolean): string {
  const stops = RAMP.map(([r, g, b], i) => `rgb(${r} ${g} ${b}) ${(i / (RAMP.length - 1)) * 100}%`);
  return `linear-gradient(${higherIsBetter ? '270deg' : '90deg'}, ${stops.join(', ')})`;
}

/**
 * Legend tick values: `count` evenly spaced from min to max. Whole-number metrics (counts)
 * get whole, distinct ticks: 1…3 events reads "1 2 3", not "1 2 2 3 3".
 */
export function legendTicks(domain: ScaleDomain, count = 5, wholeNumbers = false): number[] {
  if (domain.max === domain.min) return [domain.min];
  const ticks = Array.from({ length: count }, (_, i) => domain.min + ((domain.max - domain.min) * i) / (count - 1));
  return wholeNumbers ? [...new Set(ticks.map(Math.round))] : ticks;
}

/** The legend's caption: the metric, its unit, and which end is good (or that it is a count). */
export function legendCaption(metric: MetricInfo): string {
  if (metric.density) return `${metric.label} per cell · more is hotter`;
  return `${metric.label} (${metric.unit}) · ${metric.higherIsBetter ? 'higher is better' : 'lower is better'}`;
}
