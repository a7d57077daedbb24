import { ApiRequestError, FrameDeckApiClient } from '../api/framedeck-api.client.js';
import type { CliConfig } from '../config.js';
import { UsageError } from './accounts.command.js';
import { readKeyFile } from './key-file.js';
import {
  formatPerfDiff,
  parsePerfDiffOptions,
  perfDiff,
  perfDiffExitCode,
  perfDiffJson,
  type PerfDiffOptions,
} from './perf-diff.command.js';
import {
  parseRunProfileTestOptions,
  runCommand,
  runEnvironment,
  waitForBuildEvents,
  type RunProfileTestOptions,
} from './run-profile-test.command.js';

/**
 * The CI gate commands (docs/automated-runs.md): perf-diff and run-profile-test. Exit codes:
 * 0 passed (or no --fail-on-regression), 1 frame time regressed with --fail-on-regression,
 * 2 usage or API error (unreachable, refused, the events never landed); run-profile-test
 * returns a failing command's own exit code without gating.
 */

export const CI_GATE_USAGE = `  perf-diff --base <build> --target <build> [--map <mapId>] [--platform P] [--source player|automated]
            [--cell-size 5|10|25|50] [--days 7|14|30|90] [--threshold PCT] [--confidence 0.9|0.95|0.99]
            [--fail-on-regression] [--json] [--project <id>] [--key-file FILE]
                                                    compare two builds (GET …/builds/compare): verdict, per-metric
                                                    deltas, regressed cells with dashboard links; exit 1 with
                                                    --fail-on-regression when frame time got worse overall or in a cell
  run-profile-test --command "<cmd>" --baseline <build> [--build <id>] [--scenario S] [--branch B] [--commit C]
            [--map …] [--platform …] [--source …] [--cell-size …] [--days …] [--threshold …] [--fail-on-regression]
            [--ingest-key-file FILE] [--ingest-url URL] [--ingest-timeout S] [--poll-interval S] [--settle S]
                                                    run <cmd> with the run contract exported (FRAMEDECK_BUILD_ID, …),
                                                    wait until its events landed, then gate as perf-diff
                                                    (API key: --key-file or FRAMEDECK_API_KEY, analytics:read;
                                                    project: --project, FRAMEDECK_PROJECT_ID or the key's own)`;

/** The flags of both commands, merged into main's parseArgs options. */
export const CI_GATE_OPTIONS = {
  base: { type: 'string' },
  target: { type: 'string' },
  map: { type: 'string' },
  platform: { type: 'string' },
  source: { type: 'string' },
  'cell-size': { type: 'string' },
  days: { type: 'string' },
  threshold: { type: 'string' },
  confidence: { type: 'string' },
  'fail-on-regression': { type: 'boolean', default: false },
  command: { type: 'string' },
  baseline: { type: 'string' },
  build: { type: 'string' },
  scenario: { type: 'string' },
  branch: { type: 'string' },
  commit: { type: 'string' },
  'ingest-key-file': { type: 'string' },
  'ingest-timeout': { type: 'string' },
  'poll-interval': { type: 'string' },
  settle: { type: 'string' },
} as const;

export const CI_GATE_COMMANDS = ['perf-diff', 'run-profile-test'] as const;

type FlagValues = Record<string, string | boolean | undefined>;
type Output = { out: (text: string) => void; err: (line: string) => void };

const text = (values: FlagValues, name: string) =>
  typeof values[name] === 'string' ? (values[name] as string) : undefined;

/** The read side: the API key (--key-file, else FRAMEDECK_API_KEY) and the project it works on. */
async function connectApi(
  values: FlagValues,
  config: Pick<CliConfig, 'addresses' | 'apiClient'>,
): Promise<{ client: FrameDeckApiClient; projectId: string }> {
  const keyFile = text(values, 'key-file');
  const apiKey = keyFile === undefined ? config.apiClient.apiKey : readKeyFile('key-file', keyFile);
  if (!apiKey) throw new UsageError('an API key with analytics:read is needed: --key-file <file> or FRAMEDECK_API_KEY');
  const client = new FrameDeckApiClient({ baseUrl: config.addresses.baseUrl, apiKey });
  return { client, projectId: await client.projectId(text(values, 'project') ?? config.apiClient.projectId) };
}

/** Runs perf-diff or run-profile-test; resolves with the exit code. */
export async function runCiGateCommand(
  command: (typeof CI_GATE_COMMANDS)[number],
  values: FlagValues,
  config: CliConfig,
  output: Output,
): Promise<number> {
  try {
    if (command === 'perf-diff') {
      const options = parsePerfDiffOptions(values);
      const { client, projectId } = await connectApi(values, config);
      return await gate(client, projectId, config.addresses.appOrigin, options, values.json === true, output);
    }
    const ingestKeyFile = text(values, 'ingest-key-file');
    const options = parseRunProfileTestOptions(values, {
      run: config.run,
      ingestUrl: config.addresses.ingestUrl,
      ingestKey:
        ingestKeyFile === undefined ? config.simulate.ingestKey : readKeyFile('ingest-key-file', ingestKeyFile),
    });
    const { client, projectId } = await connectApi(values, config);
    return await runProfileTest(client, projectId, config, options, values.json === true, output);
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    output.err(`framedeck ${command}: ${error.message}`);
    return 2;
  }
}

async function gate(
  client: FrameDeckApiClient,
  projectId: string,
  appOrigin: string,
  options: PerfDiffOptions,
  json: boolean,
  output: Output,
): Promise<number> {
  const report = await perfDiff(client, projectId, appOrigin, options);
  output.out(json ? JSON.stringify(perfDiffJson(report)) : formatPerfDiff(report));
  return perfDiffExitCode(report);
}

async function runProfileTest(
  client: FrameDeckApiClient,
  projectId: string,
  config: CliConfig,
  options: RunProfileTestOptions,
  json: boolean,
  output: Output,
): Promise<number> {
  const { run } = options;
  output.err(
    `run-profile-test: build ${run.buildId}` +
      [
        run.branch && `branch ${run.branch}`,
        run.commit && `commit ${run.commit}`,
        run.scenario && `scenario ${run.scenario}`,
      ]
        .filter(Boolean)
        .map((part) => `, ${part}`)
        .join(''),
  );
  await warnUnlessCiKey(config, options, output);
  output.err(`run-profile-test: running ${options.command}`);
  const exitCode = await runCommand(options.command, runEnvironment(options, config.childEnvironment));
  if (exitCode !== 0) {
    output.err(`run-profile-test: the command failed (exit ${exitCode}); no gate run`);
    return exitCode;
  }
  output.err(
    `run-profile-test: waiting for the events of ${run.buildId} to land (up to ${options.ingestTimeoutMs / 1000} s)`,
  );
  const events = await waitForBuildEvents(client, projectId, { ...options, days: options.comparison.days }, (line) =>
    output.err(line),
  );
  output.err(`run-profile-test: ${events.toLocaleString('en')} events stored; comparing with ${options.baseline}`);
  const comparison = { base: options.baseline, target: run.buildId, ...options.comparison };
  return gate(client, projectId, config.addresses.appOrigin, comparison, json, output);
}

/**
 * Only a CI key (events:synthetic) makes the run's events automated; with another key they
 * count as whatever the game says (players, by default), so say so before running. Asked with
 * GET /v1/whoami, which answers any valid key; the run goes on if it cannot be asked.
 */
async function warnUnlessCiKey(config: CliConfig, options: RunProfileTestOptions, output: Output): Promise<void> {
  if (!options.ingestKey) {
    output.err(
      'run-profile-test: no ingest key to export (--ingest-key-file or FRAMEDECK_INGEST_KEY): the command must bring its own',
    );
    return;
  }
  try {
    const scopes = await new FrameDeckApiClient({
      baseUrl: config.addresses.baseUrl,
      apiKey: options.ingestKey,
    }).scopes();
    if (!scopes.includes('events:synthetic')) {
      output.err(
        'run-profile-test: warning: the ingest key is not a CI key (no events:synthetic): the run’s events will be ' +
          'stored with the source the game sends (player by default), not as automated',
      );
    }
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    output.err(`run-profile-test: could not check the ingest key's scopes (${error.message})`);
  }
}
