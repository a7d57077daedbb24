import {
  BUILD_METRICS,
  BUILDS_DEFAULTS,
  HEATMAP_DEFAULTS,
  type BuildCellsComparison,
  type BuildComparison,
  type BuildMetric,
  type CellVerdict,
} from '@framedeck/analytics';
import type { FrameDeckApiClient } from '../api/framedeck-api.client.js';
import { heatmapLink } from '../api/dashboard-links.js';
import { UsageError } from './accounts.command.js';

/**
 * `framedeck perf-diff`: the CI gate over GET /v1/projects/{id}/builds/compare. It prints the
 * comparison (verdict, per-metric deltas, the regressed cells ranked by impact, each with a link
 * to the dashboard heatmap at that place) and, with --fail-on-regression, exits 1 when frame time
 * got worse overall or in any cell (the API's overall verdict, which is never `unchanged` while a
 * significant local regression exists).
 */

export type PerfDiffOptions = {
  base: string;
  target: string;
  mapId?: string | undefined;
  platform?: string | undefined;
  source?: 'player' | 'automated' | undefined;
  cellSize: number;
  days: number;
  /** Noise threshold, percent (the API's default when undefined). */
  threshold?: number | undefined;
  confidence?: string | undefined;
  failOnRegression: boolean;
};

/** The answer of builds/compare as the API assembles it (services/api builds.route.ts). */
export type BuildComparisonAnswer = BuildComparison & {
  verdict: CellVerdict;
} & Partial<Pick<BuildCellsComparison, 'cells' | 'regressions' | 'testedCells' | 'criticalZ'>>;

/** A regressed cell with the dashboard address that shows it. */
export type RegressedCell = NonNullable<BuildComparisonAnswer['regressions']>[number] & { heatmapUrl: string };

export type PerfDiffReport = {
  projectId: string;
  options: PerfDiffOptions;
  comparison: BuildComparisonAnswer;
  regressions: RegressedCell[];
  /** What the gate decided: frame time worse overall or in a cell. */
  regressed: boolean;
};

type FlagValues = Record<string, string | boolean | undefined>;

const text = (values: FlagValues, name: string) =>
  typeof values[name] === 'string' ? (values[name] as string) : undefined;

function integerFlag(values: FlagValues, name: string, fallback: number): number;
function integerFlag(values: FlagValues, name: string, fallback?: number): number | undefined;
function integerFlag(values: FlagValues, name: string, fallback?: number): number | undefined {
  const raw = text(values, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`--${name} must be a positive integer`);
  return value;
}

/** The comparison flags perf-diff and run-profile-test share; the API checks the values' ranges. */
export function parseComparisonFlags(values: FlagValues): Omit<PerfDiffOptions, 'base' | 'target'> {
  const source = text(values, 'source');
  if (source !== undefined && source !== 'player' && source !== 'automated') {
    throw new UsageError('--source must be player or automated');
  }
  return {
    mapId: text(values, 'map'),
    platform: text(values, 'platform'),
    source,
    cellSize: integerFlag(values, 'cell-size', HEATMAP_DEFAULTS.cellSize),
    days: integerFlag(values, 'days', BUILDS_DEFAULTS.days),
    threshold: integerFlag(values, 'threshold'),
    confidence: text(values, 'confidence'),
    failOnRegression: values['fail-on-regression'] === true,
  };
}

export function parsePerfDiffOptions(values: FlagValues): PerfDiffOptions {
  const base = text(values, 'base');
  const target = text(values, 'target');
  if (!base || !target) throw new UsageError('perf-diff needs --base <build> and --target <build>');
  return { base, target, ...parseComparisonFlags(values) };
}

/** Asks the API for the comparison and decides the gate. */
export async function perfDiff(
  client: FrameDeckApiClient,
  projectId: string,
  appOrigin: string,
  options: PerfDiffOptions,
): Promise<PerfDiffReport> {
  const comparison = await client.get<BuildComparisonAnswer>(
    `/v1/projects/${encodeURIComponent(projectId)}/builds/compare`,
    {
      base: options.base,
      target: options.target,
      mapId: options.mapId,
      platform: options.platform,
      source: options.source,
      days: options.days,
      threshold: options.threshold,
      confidence: options.confidence,
      // cellSize only means something with a map (the per-cell comparison).
      cellSize: options.mapId === undefined ? undefined : options.cellSize,
    },
  );
  const regressions = (comparison.regressions ?? []).map((cell) => ({
    ...cell,
    heatmapUrl: heatmapLink(appOrigin, projectId, {
      // The map's own id as the API resolved it (the flag may name it by its internal id).
      mapId: comparison.maps[0]?.mapId ?? options.mapId!,
      buildId: options.target,
      cellSize: options.cellSize,
      days: options.days,
      focus: { x: cell.x, y: cell.y },
    }),
  }));
  return {
    projectId,
    options,
    comparison,
    regressions,
    regressed: comparison.verdict === 'worse' || regressions.length > 0,
  };
}

/** 1 when the gate is asked for and frame time regressed; 0 otherwise (2 is for usage and API errors, main.ts). */
export function perfDiffExitCode(report: Pick<PerfDiffReport, 'regressed' | 'options'>): 0 | 1 {
  return report.options.failOnRegression && report.regressed ? 1 : 0;
}

const UNITS: Record<BuildMetric, string> = {
  fps: 'fps',
  frame_time: 'ms',
  memory: 'MB',
  gpu_time: 'ms',
  game_thread: 'ms',
  render_thread: 'ms',
};

const number = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '—' : value.toFixed(digits);
const signed = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '—' : `${value > 0 ? '+' : ''}${value.toFixed(digits)}`;

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
}

/** The comparison as a person reads it in a CI log. */
export function formatPerfDiff(report: PerfDiffReport): string {
  const { comparison: c, options } = report;
  const scope = [
    options.mapId ? `map ${options.mapId}` : 'all maps',
    options.platform ? `platform ${options.platform}` : 'all platforms',
    options.source ? `${options.source} events only` : 'all sources',
    `last ${options.days} days`,
  ].join(', ');
  const lines = [`perf-diff ${c.base} → ${c.target} (${scope})`];
  const cellNote =
    c.testedCells === undefined
      ? ' (no per-cell test without --map)'
      : `; ${report.regressions.length} of ${c.testedCells} tested cells worse`;
  lines.push(`Verdict: ${c.verdict.toUpperCase()} (frame time, overall and per cell${cellNote})`);
  if (c.verdict === 'insufficient') {
    lines.push(`  Either build has fewer than ${c.minSamples} frame samples here: nothing could be judged.`);
  }
  lines.push('');
  const rows = [['metric', 'base p50', 'target p50', 'Δ p50', 'base p95', 'target p95', 'Δ mean', 'verdict']];
  for (const metric of Object.keys(BUILD_METRICS) as BuildMetric[]) {
    const base = c.overall.base[metric];
    const target = c.overall.target[metric];
    const compared = c.overall.metrics[metric];
    if (base.samples === 0 && target.samples === 0) continue;
    rows.push([
      `${metric} (${UNITS[metric]})`,
      number(base.p50),
      number(target.p50),
      signed(compared.delta.p50),
      number(base.p95),
      number(target.p95),
      compared.deltaPercent === null ? '—' : `${signed(compared.deltaPercent)} %`,
      compared.verdict ?? `n/a (< ${c.minSamples} samples)`,
    ]);
  }
  lines.push(...table(rows));
  if (c.criticalZ !== undefined) {
    lines.push(
      '',
      `Per-cell test: cell size ${options.cellSize}, a cell is worse when |z| > ${c.criticalZ.toFixed(2)} ` +
        `(Bonferroni over ${c.testedCells} cells) and its frame time rose more than ${c.thresholdPercent} %.`,
    );
  }
  if (report.regressions.length > 0) {
    lines.push('', 'Regressed cells, largest impact first (impact = target samples × Δ ms):');
    const cells = [['#', 'x', 'y', 'Δ ms', 'Δ %', 'samples', 'impact']];
    report.regressions.forEach((r, i) =>
      cells.push([
        String(i + 1),
        String(r.x),
        String(r.y),
        signed(r.deltaMs, 2),
        r.deltaPercent === null ? '—' : `${signed(r.deltaPercent)} %`,
        String(r.targetSamples),
        r.impact.toFixed(0),
      ]),
    );
    const [header, ...body] = table(cells);
    lines.push(header!, ...body.map((line, i) => `${line}\n    ${report.regressions[i]!.heatmapUrl}`));
  }
  lines.push(
    '',
    report.regressed
      ? `REGRESSION: frame time of ${c.target} is worse than ${c.base}` +
          (options.failOnRegression ? ' (exit 1)' : ' (not failing: no --fail-on-regression)')
      : `No frame-time regression of ${c.target} against ${c.base}.`,
  );
  return lines.join('\n');
}

/** --json: the gate's decision, the links, and the API's comparison as it came. */
export function perfDiffJson(report: PerfDiffReport): Record<string, unknown> {
  return {
    projectId: report.projectId,
    base: report.comparison.base,
    target: report.comparison.target,
    verdict: report.comparison.verdict,
    regressed: report.regressed,
    exitCode: perfDiffExitCode(report),
    regressions: report.regressions,
    comparison: report.comparison,
  };
}
