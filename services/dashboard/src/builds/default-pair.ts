import type { BuildSummary } from '../api/analytics.api';

export type BuildPair = { base: string; target: string };

/**
 * The pair the Builds page compares first: the two most recently seen builds that each have at
 * least `minSamples` frame samples (the API's minimum for a verdict), the newer as the target. A
 * build seen a minute ago with 3 samples would only ever answer "not enough data". With fewer
 * than two such builds, the most recent builds fill in, so the page still shows something.
 *
 * `builds` is the API's list, most recently seen first.
 */
export function defaultPair(builds: readonly BuildSummary[], minSamples: number): BuildPair | undefined {
  const enough = builds.filter((b) => b.samples >= minSamples);
  const ranked = [...enough, ...builds.filter((b) => b.samples < minSamples)];
  const [target, base] = ranked;
  if (!target) return undefined;
  return { base: (base ?? target).buildId, target: target.buildId };
}
