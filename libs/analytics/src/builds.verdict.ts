/** Statistics of one metric for one build; all null when the build has no sample of it. */
export type MetricStats = {
  samples: number;
  avg: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
};

export type Verdict = 'better' | 'worse' | 'unchanged';

export type MetricComparison = {
  /** target − base for each statistic; null when either side has no sample. */
  delta: { avg: number | null; p50: number | null; p95: number | null; p99: number | null };
  /** Relative change of the mean in percent of the base mean; null when undefined. */
  deltaPercent: number | null;
  /** null when either side has fewer than minSamples samples (no honest verdict possible). */
  verdict: Verdict | null;
};

/**
 * The noise rule: a metric changed only when its mean moved by more than `thresholdPercent`
 * of the base mean (default 5 %: frame-to-frame jitter of a steady scene on one machine
 * stays well below it, while a regression players notice — 60 → 55 fps — is above it), and
 * both builds have at least `minSamples` samples. Direction decides better/worse.
 */
export function compareStats(
  base: MetricStats,
  target: MetricStats,
  rule: { higherIsBetter: boolean; thresholdPercent: number; minSamples: number },
): MetricComparison {
  const diff = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);
  const delta = {
    avg: diff(base.avg, target.avg),
    p50: diff(base.p50, target.p50),
    p95: diff(base.p95, target.p95),
    p99: diff(base.p99, target.p99),
  };
  const deltaPercent = delta.avg !== null && base.avg !== null && base.avg !== 0 ? (delta.avg / base.avg) * 100 : null;
  let verdict: Verdict | null = null;
  if (base.samples >= rule.minSamples && target.samples >= rule.minSamples && deltaPercent !== null) {
    if (Math.abs(deltaPercent) <= rule.thresholdPercent) verdict = 'unchanged';
    else verdict = deltaPercent > 0 === rule.higherIsBetter ? 'better' : 'worse';
  }
  return { delta, deltaPercent, verdict };
}
