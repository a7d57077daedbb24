/**
 * Where on a map a build got worse: the per-cell test of the spatial build comparison.
 *
 * Method. For each cell and each platform seen by both builds with at least `minSamples`
 * frame samples on each side, the difference of mean frame time d_p = mean_target − mean_base
 * and its standard error se_p = sqrt(var_target / n_target + var_base / n_base) (Welch).
 * Platforms are combined with the base build's weights w_p = n_base,p / Σ n_base: the same
 * platform mix on both sides, so a target played more on a slower platform does not look
 * slower (stratification). D = Σ w_p d_p, SE = sqrt(Σ w_p² se_p²), z = D / SE.
 * A cell is `worse` (or `better`) when both hold:
 *  - statistically: |z| above the two-sided critical value for `confidence`, Bonferroni-
 *    corrected for the number of cells tested (so, under the test's assumptions, the chance
 *    that any cell of the map is flagged between identical builds is at most 1 − confidence);
 *  - practically: |D| is more than `thresholdPercent` of the base mean (a 1 % change is not
 *    a regression a player notices, however many samples prove it).
 * `insufficient` when no platform has enough samples on both sides.
 * Sessions. Frame samples of one session in one cell are correlated (the player's hardware
 * settings, the scene at that moment), so they carry less information than independent ones:
 * the Welch standard error alone is too small, and identical builds were flagged on 18 % of
 * simulated maps when sessions left 3 samples per cell, 82 % with 10 (cell-regression.false-
 * positives.test.ts). Each platform's variance term is therefore multiplied by its design
 * effect 1 + (m − 1)ρ (Kish): ρ the intraclass correlation of frame time within a session's
 * samples in a cell (one-way ANOVA over session groups, within each cell and build), m the
 * samples-weighted mean group size, both estimated from the compared builds' events.
 */

export type CellVerdict = 'better' | 'worse' | 'unchanged' | 'insufficient';

/** Frame-time statistics of one build on one platform in one cell. */
export type StratumStats = { samples: number; mean: number; variance: number };

export type CellTestRule = { confidence: number; thresholdPercent: number; minSamples: number };

export type CellTest = {
  verdict: CellVerdict;
  /** Stratified change of mean frame time, ms (target − base); null when insufficient. */
  deltaMs: number | null;
  /** deltaMs in percent of the base's (stratified) mean. */
  deltaPercent: number | null;
  z: number | null;
  /** Platforms compared (enough samples on both sides). */
  platforms: string[];
};

/** The inverse of the standard normal CDF (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`probability out of (0, 1): ${p}`);
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
    ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/** The two-sided critical |z| for `confidence` over `tests` simultaneous tests (Bonferroni). */
export function criticalZ(confidence: number, tests: number): number {
  return normalQuantile(1 - (1 - confidence) / (2 * Math.max(1, tests)));
}

/**
 * Sums over the samples of one platform grouped by (cell, build, session), from which the
 * intraclass correlation is estimated: `frames` N, `groups` G (cell × build × session),
 * `cells` C (cell × build), `withinSquares` Σ (x − group mean)², `betweenSquares` Σ n_g ×
 * (group mean − cell mean)², `sizeSquaresOverCellFrames` Σ_c Σ_g n_g² / N_c, `sizeSquares` Σ n_g².
 */
export type SessionGroupSums = {
  frames: number;
  groups: number;
  cells: number;
  withinSquares: number;
  betweenSquares: number;
  sizeSquaresOverCellFrames: number;
  sizeSquares: number;
};

/**
 * The variance inflation of a mean over session-grouped samples, 1 + (m − 1)ρ, where ρ is the
 * one-way ANOVA estimate of the intraclass correlation (with unequal group sizes:
 * n0 = (N − Σ n_g²/N_c) / (G − C)), clamped to [0, 1], and m = Σ n_g² / N. 1 when the sums
 * hold no evidence of grouping (one sample per group, or too few groups).
 */
export function designEffect(s: SessionGroupSums): number {
  const withinDf = s.frames - s.groups;
  const betweenDf = s.groups - s.cells;
  if (withinDf <= 0 || betweenDf <= 0) return 1;
  const withinMean = s.withinSquares / withinDf;
  const betweenMean = s.betweenSquares / betweenDf;
  const n0 = (s.frames - s.sizeSquaresOverCellFrames) / betweenDf;
  const denominator = betweenMean + (n0 - 1) * withinMean;
  const rho = denominator > 0 ? Math.min(1, Math.max(0, (betweenMean - withinMean) / denominator)) : 0;
  return 1 + (s.sizeSquares / s.frames - 1) * rho;
}

/**
 * One cell's verdict from its per-platform statistics (see the module comment); `designEffects`
 * by platform (default 1: samples taken as independent).
 */
export function testCell(
  base: ReadonlyMap<string, StratumStats>,
  target: ReadonlyMap<string, StratumStats>,
  rule: CellTestRule,
  zCritical: number,
  designEffects: ReadonlyMap<string, number> = new Map(),
): CellTest {
  const strata = [...base.keys()]
    .filter((p) => base.get(p)!.samples >= rule.minSamples && (target.get(p)?.samples ?? 0) >= rule.minSamples)
    .sort();
  if (strata.length === 0)
    return { verdict: 'insufficient', deltaMs: null, deltaPercent: null, z: null, platforms: [] };
  const baseTotal = strata.reduce((sum, p) => sum + base.get(p)!.samples, 0);
  let delta = 0;
  let baseMean = 0;
  let variance = 0;
  for (const p of strata) {
    const b = base.get(p)!;
    const t = target.get(p)!;
    const w = b.samples / baseTotal;
    delta += w * (t.mean - b.mean);
    baseMean += w * b.mean;
    variance += w * w * (designEffects.get(p) ?? 1) * (t.variance / t.samples + b.variance / b.samples);
  }
  const z = variance > 0 ? delta / Math.sqrt(variance) : delta === 0 ? 0 : Math.sign(delta) * Infinity;
  const deltaPercent = baseMean > 0 ? (delta / baseMean) * 100 : null;
  const practical = deltaPercent !== null && Math.abs(deltaPercent) > rule.thresholdPercent;
  const significant = Math.abs(z) > zCritical;
  const verdict: CellVerdict = practical && significant ? (delta > 0 ? 'worse' : 'better') : 'unchanged';
  return { verdict, deltaMs: delta, deltaPercent, z: Number.isFinite(z) ? z : null, platforms: strata };
}
