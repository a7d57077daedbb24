/**
 * The fields of an alert rule and their allowed values. The API validates with these, the
 * Postgres CHECK constraints (migration 004) mirror them, the evaluator relies on them.
 */

export const ALERT_METRICS = [
  'fps',
  'frame_time',
  'memory',
  'gpu_time',
  // The tails (issue #18): a map can average 60 fps and still stutter where a few frames take
  // far longer. Named as the heatmap cells name them (libs/analytics).
  'p99_frame_time',
  'hitch_share_33ms',
  'hitch_share_50ms',
] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

export const THRESHOLD_LEVELS = ['warn', 'good'] as const;
export type ThresholdLevel = (typeof THRESHOLD_LEVELS)[number];

export const ALERT_STATUSES = ['triggered', 'resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** The heatmap's own grid sizes (spec: heatmap cellSize). */
export const ALERT_CELL_SIZES = [5, 10, 25, 50] as const;
/**
 * The heatmap's own `days` values, so that the dashboard link in a notification shows exactly
 * the window that was evaluated.
 */
export const ALERT_EVALUATION_DAYS = [1, 7, 14, 30] as const;

export const ALERT_RULE_BOUNDS = {
  nameMaxLength: 200,
  failPercentage: { min: 1, max: 100 },
  /** 0 = no cooldown; at most one week. */
  cooldownMinutes: { min: 0, max: 10_080 },
  channelsPerRule: 20,
  /** Threshold profiles one rule may hold its cells to (the Framedash CLI allows 10). */
  profilesPerRule: 10,
} as const;

/** What a rule gets when the create body leaves a field out. */
export const ALERT_RULE_DEFAULTS = {
  thresholdLevel: 'warn',
  failPercentage: 25,
  evaluationDays: 7,
  cellSize: 25,
  cooldownMinutes: 60,
  isActive: true,
} as const satisfies Partial<Record<string, unknown>>;

/** Whether a larger value is better (fps) or worse (times, memory, hitches). */
export const METRIC_DIRECTION: Record<AlertMetric, 'higher_is_better' | 'lower_is_better'> = {
  fps: 'higher_is_better',
  frame_time: 'lower_is_better',
  memory: 'lower_is_better',
  gpu_time: 'lower_is_better',
  p99_frame_time: 'lower_is_better',
  hitch_share_33ms: 'lower_is_better',
  hitch_share_50ms: 'lower_is_better',
};

export const METRIC_UNIT: Record<AlertMetric, string> = {
  fps: 'fps',
  frame_time: 'ms',
  memory: 'MB',
  gpu_time: 'ms',
  p99_frame_time: 'ms',
  hitch_share_33ms: '%',
  hitch_share_50ms: '%',
};
