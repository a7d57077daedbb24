import type { AlertMetric, ThresholdLevel } from './alert-rule.model.js';
import { evaluateCells, type CellEvaluation, type EvaluationCell } from './cell-evaluation.js';
import { thresholdFor, type ThresholdValues } from './threshold-profile.model.js';

/** One of a rule's threshold profiles, in the rule's order. */
export type BundledProfile = { id: string; thresholds: ThresholdValues };

export type BundleCriteria = { metric: AlertMetric; thresholdLevel: ThresholdLevel; failPercentage: number };

/** The evaluation that decides the rule, and the profile it was made against. */
export type BundleEvaluation = { profileId: string; threshold: number; result: CellEvaluation };

/**
 * A rule with several threshold profiles holds the map's cells to each of them and reports the
 * worst outcome: triggered when any profile's evaluation triggers. "Worst" = triggered before
 * resolved, then the larger failing percentage, then the earlier profile (so a single-profile
 * rule, or a tie, is decided by the rule's primary profile, as before bundles existed).
 */
export function evaluateProfileBundle(
  cells: readonly EvaluationCell[],
  profiles: readonly BundledProfile[],
  criteria: BundleCriteria,
): BundleEvaluation {
  if (profiles.length === 0) throw new Error('a rule needs at least one threshold profile');
  const evaluations = profiles.map((profile) => {
    const threshold = thresholdFor(profile.thresholds, criteria.metric, criteria.thresholdLevel);
    const result = evaluateCells(cells, {
      metric: criteria.metric,
      threshold,
      failPercentage: criteria.failPercentage,
    });
    return { profileId: profile.id, threshold, result };
  });
  return evaluations.reduce((worst, candidate) => (isWorseOutcome(candidate, worst) ? candidate : worst));
}

function isWorseOutcome(a: BundleEvaluation, b: BundleEvaluation): boolean {
  const triggered = (e: BundleEvaluation) => (e.result.status === 'triggered' ? 1 : 0);
  if (triggered(a) !== triggered(b)) return triggered(a) > triggered(b);
  return a.result.failingPercentage > b.result.failingPercentage;
}
