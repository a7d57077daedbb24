import { spawn, spawnSync } from 'node:child_process';
import { RUN_ENV, runContextEnv, type RunContext } from '@framedeck/sender';
import { ApiRequestError, type FrameDeckApiClient } from '../api/framedeck-api.client.js';
import { UsageError } from './accounts.command.js';
import { parseComparisonFlags, type PerfDiffOptions } from './perf-diff.command.js';

/**
 * `framedeck run-profile-test`: one automated profiling run, gated. It exports the run contract
 * (libs/sender run-contract.ts: build id, branch, commit, scenario, ingest endpoint and key) to
 * the command, runs it with the terminal's stdio, waits until the build's events have landed
 * (the build's event count in GET /v1/projects/{id}/builds stops growing), then compares the
 * build with the baseline exactly as perf-diff does.
 */

export type RunProfileTestOptions = {
  command: string;
  baseline: string;
  run: Required<Pick<RunContext, 'buildId'>> & RunContext;
  ingestUrl: string;
  /** Exported as FRAMEDECK_INGEST_KEY; undefined when the command brings its own. */
  ingestKey: string | undefined;
  /** Longest wait for the events to land after the command exits. */
  ingestTimeoutMs: number;
  /** Time between two reads of the build's event count. */
  pollIntervalMs: number;
  /** The count must stay the same this long (and over two reads at least) to count as landed. */
  settleMs: number;
  comparison: Omit<PerfDiffOptions, 'base' | 'target'>;
};

type FlagValues = Record<string, string | boolean | undefined>;

const text = (values: FlagValues, name: string) =>
  typeof values[name] === 'string' ? (values[name] as string) : undefined;

function seconds(values: FlagValues, name: string, fallback: number): number {
  const raw = text(values, name);
  if (raw === undefined) return fallback * 1000;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`--${name} must be a positive number of seconds`);
  return value * 1000;
}

/** What git says about the working directory, when it is a repository (else undefined). */
function git(args: string[]): string | undefined {
  const result = spawnSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return result.status === 0 ? result.stdout.trim() || undefined : undefined;
}

/**
 * The run: flags first, then the run contract's variables already in the CLI's environment (a
 * CI job may set them), then git for branch and commit. The build id, when nothing names one,
 * is made unique per run (`run-<commit>-<UTC time>`), since the gate compares it as one build.
 */
export function resolveRun(
  values: FlagValues,
  fromEnv: RunContext,
  now = new Date(),
  gitOutput: (args: string[]) => string | undefined = git,
): RunProfileTestOptions['run'] {
  const branch = text(values, 'branch') ?? fromEnv.branch ?? gitOutput(['rev-parse', '--abbrev-ref', 'HEAD']);
  const commit = text(values, 'commit') ?? fromEnv.commit ?? gitOutput(['rev-parse', 'HEAD']);
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15); // 20261124T043000
  const buildId = text(values, 'build') ?? fromEnv.buildId ?? `run-${commit?.slice(0, 10) ?? 'local'}-${stamp}`;
  return { buildId, branch, commit, scenario: text(values, 'scenario') ?? fromEnv.scenario };
}

export function parseRunProfileTestOptions(
  values: FlagValues,
  defaults: { run: RunContext; ingestUrl: string; ingestKey: string | undefined },
): RunProfileTestOptions {
  const command = text(values, 'command');
  const baseline = text(values, 'baseline');
  if (!command || !baseline) throw new UsageError('run-profile-test needs --command "<cmd>" and --baseline <build>');
  const run = resolveRun(values, defaults.run);
  if (run.buildId === baseline) throw new UsageError('the run’s build id must differ from --baseline');
  return {
    command,
    baseline,
    run,
    ingestUrl: text(values, 'ingest-url') ?? defaults.ingestUrl,
    ingestKey: defaults.ingestKey,
    ingestTimeoutMs: seconds(values, 'ingest-timeout', 180),
    pollIntervalMs: seconds(values, 'poll-interval', 3),
    settleMs: seconds(values, 'settle', 6),
    comparison: parseComparisonFlags(values),
  };
}

/** The environment the command runs in: this one plus the run contract. */
export function runEnvironment(
  options: Pick<RunProfileTestOptions, 'run' | 'ingestUrl' | 'ingestKey'>,
  inherited: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  return {
    ...inherited,
    ...runContextEnv(options.run),
    [RUN_ENV.ingestUrl]: options.ingestUrl,
    ...(options.ingestKey ? { [RUN_ENV.ingestKey]: options.ingestKey } : {}),
  };
}

/** Runs the command through the shell with this terminal's stdio; resolves with its exit code (128 + n for signal n). */
export function runCommand(command: string, env: Record<string, string | undefined>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, stdio: 'inherit', env });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code !== null) resolve(code);
      else resolve(128 + (signal ? (SIGNAL_NUMBERS[signal] ?? 1) : 1));
    });
  });
}
const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

type BuildRow = { buildId: string; events: number; samples: number };

/**
 * Polls the build's event count until it is above 0 and has not changed for `settleMs` (two
 * reads at least): the consumer inserts a batch within about a second of its acceptance, so a
 * count that stands still has everything the command sent. A 429/503 waits its Retry-After.
 * Returns the count; throws ApiRequestError when the timeout passes first.
 */
export async function waitForBuildEvents(
  client: FrameDeckApiClient,
  projectId: string,
  options: Pick<RunProfileTestOptions, 'run' | 'ingestTimeoutMs' | 'pollIntervalMs' | 'settleMs'> & {
    days: number;
  },
  progress: (line: string) => void,
): Promise<number> {
  const buildId = options.run.buildId;
  const deadline = Date.now() + options.ingestTimeoutMs;
  let last = -1;
  let stableSince = Date.now();
  let reads = 0;
  for (;;) {
    let delayMs = options.pollIntervalMs;
    try {
      const [build] = await client.get<BuildRow[]>(`/v1/projects/${encodeURIComponent(projectId)}/builds`, {
        buildId,
        days: options.days,
      });
      const count = build?.events ?? 0;
      if (count !== last) {
        progress(`  ${count.toLocaleString('en')} events of build ${buildId} stored so far`);
        last = count;
        stableSince = Date.now();
        reads = 1;
      } else reads++;
      if (count > 0 && reads >= 2 && Date.now() - stableSince >= options.settleMs) return count;
    } catch (error) {
      const busy = error instanceof ApiRequestError && (error.status === 429 || error.status === 503);
      if (!busy) throw error;
      delayMs = Math.max(delayMs, error.retryAfterMs ?? delayMs);
      progress(
        `  the API is busy (${(error as ApiRequestError).status}); next read in ${Math.round(delayMs / 1000)} s`,
      );
    }
    if (Date.now() + delayMs > deadline) {
      throw new ApiRequestError(
        last > 0
          ? `build ${buildId}: its event count was still changing after ${options.ingestTimeoutMs / 1000} s (${last} so far)`
          : `build ${buildId}: no performance event of it stored within ${options.ingestTimeoutMs / 1000} s ` +
              '(did the command send any, with the exported FRAMEDECK_INGEST_URL and key?)',
        undefined,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}
