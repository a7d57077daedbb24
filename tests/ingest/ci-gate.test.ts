import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from '@framedeck/clickhouse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadMap } from '../analytics/api-helpers.js';
import { startApi, type TestApi } from '../api/support/api-harness.js';
import { runCli, type RunningService } from '../support/processes.js';
import { REPO_ROOT, serviceEnv } from '../support/config.js';
import { waitFor } from '../support/wait.js';
import {
  expectRollupsCountEachEventOnce,
  INGEST_URL,
  newTenant,
  queryRows,
  startConsumer,
  startGateway,
  type Tenant,
} from './ingest-harness.js';

// The CI gate with the real stack: `framedeck perf-diff` and `framedeck run-profile-test`
// (built CLI) against the API, with every event sent through gateway → Kafka → consumer →
// ClickHouse by a stand-in game (support/profile-game.mjs) that uses the TypeScript sender.
// Builds: base; same (identical samples); slow (the region x 100–150, y 50–100 30 % slower).
const GAME = `${REPO_ROOT}tests/ingest/support/profile-game.mjs`;
const REGION_CELLS = [
  [112.5, 62.5],
  [112.5, 87.5],
  [137.5, 62.5],
  [137.5, 87.5],
];
let api: TestApi;
let gateway: RunningService;
let consumer: RunningService;
let tenant: Tenant;
let ciKey: string;
let keyFiles: { read: string; ci: string };

/** Runs the stand-in game as a CI job would, with the run contract in its environment. */
function playBuild(env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [GAME], { env: serviceEnv(env), stdio: 'ignore' });
    child.once('exit', resolve);
  });
}

async function storedEvents(buildId: string): Promise<number> {
  const [row] = await queryRows<{ n: string }>(
    api.clickhouse,
    sql`SELECT count() AS n FROM events WHERE project_id = ${tenant.projectId} AND build_id = ${buildId}`,
  );
  return Number(row!.n);
}

/** The CLI as a CI job runs it: the API of this test, the read key in a file. */
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--key-file', keyFiles.read], {
    FRAMEDECK_APP_ORIGIN: api.baseUrl.replace(/\/api$/, ''),
    FRAMEDECK_PROJECT_ID: tenant.projectId,
    ...env,
  });

/** perf-diff of `target` against base on the bridge map. */
const perfDiff = (target: string, ...flags: string[]) =>
  cli(['perf-diff', '--base', 'base', '--target', target, '--map', 'bridge', ...flags]);

beforeAll(async () => {
  api = await startApi();
  tenant = await newTenant(api.pool, 'pro');
  // The CI key, created as a studio would: POST /v1/projects/{id}/keys with the full key.
  const created = await api.request(`/v1/projects/${tenant.projectId}/keys`, {
    method: 'POST',
    key: tenant.keys.full!,
    json: { preset: 'ci', name: 'nightly profiling' },
  });
  expect(created.status, created.text).toBe(201);
  expect(created.body.data.key.scopes).toEqual(['events:write', 'events:synthetic']);
  ciKey = created.body.data.value;
  const dir = mkdtempSync(join(tmpdir(), 'framedeck-ci-gate-'));
  keyFiles = { read: join(dir, 'read.key'), ci: join(dir, 'ci.key') };
  writeFileSync(keyFiles.read, `${tenant.keys.read!}\n`);
  writeFileSync(keyFiles.ci, `${ciKey}\n`);
  const map = await uploadMap(api, {
    key: tenant.keys.readWrite!,
    projectId: tenant.projectId,
    fields: { name: 'Bridge', mapId: 'bridge', worldMinX: 0, worldMinY: 0, worldMaxX: 200, worldMaxY: 200 },
  });
  expect(map.status).toBeLessThan(300);
  [gateway, consumer] = await Promise.all([startGateway(), startConsumer()]);
  const ingest = { FRAMEDECK_INGEST_URL: INGEST_URL, FRAMEDECK_INGEST_KEY: tenant.keys.ingest! };
  const builds = { base: '1', same: '1', slow: '1.3' };
  for (const [buildId, slowRegion] of Object.entries(builds)) {
    expect(await playBuild({ ...ingest, FRAMEDECK_BUILD_ID: buildId, PROFILE_SLOW_REGION: slowRegion })).toBe(0);
  }
  for (const buildId of Object.keys(builds)) {
    await waitFor(async () => (await storedEvents(buildId)) === 4000, {
      timeoutMs: 120_000,
      what: `the 4000 events of build ${buildId}`,
    });
  }
  // The comparison reads the rollups, whose views fill one after another after each insert.
  await expectRollupsCountEachEventOnce(api.clickhouse, tenant.projectId, 120_000);
}, 300_000);
afterAll(async () => {
  await Promise.all([gateway?.stop(), consumer?.stop()]);
  await api?.close();
});

describe('framedeck perf-diff', () => {
  it('exits 1 on a local regression with --fail-on-regression, listing the cells with heatmap links', async () => {
    const { code, stdout, stderr } = await perfDiff('slow', '--fail-on-regression');
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(stdout).toMatch(/^Verdict: WORSE/m);
    expect(stdout).toMatch(/^frame_time \(ms\) /m);
    expect(stdout).toContain('REGRESSION: frame time of slow is worse than base (exit 1)');
    const link =
      `${api.baseUrl.replace(/\/api$/, '')}/projects/${tenant.projectId}/heatmap` +
      '?mapId=bridge&cellSize=25&days=30&metric=frame_time&buildId=slow&focus=';
    for (const [x, y] of REGION_CELLS) expect(stdout).toContain(`${link}${x}%2C${y}`);
  }, 120_000);

  it('reports the same as JSON: exactly the slow region’s cells regressed', async () => {
    const { code, stdout } = await perfDiff('slow', '--json');
    expect(code).toBe(0); // no --fail-on-regression: the report only
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ verdict: 'worse', regressed: true, exitCode: 0 });
    expect(report.regressions.map((r: { x: number; y: number }) => [r.x, r.y]).sort()).toEqual(REGION_CELLS);
  }, 120_000);

  it('exits 0 on identical builds', async () => {
    const { code, stdout } = await perfDiff('same', '--fail-on-regression');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Verdict: UNCHANGED/m);
    expect(stdout).toContain('No frame-time regression of same against base.');
  }, 120_000);

  it('exits 2 on a usage error and on an API refusal', async () => {
    const usage = await cli(['perf-diff', '--base', 'base']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('perf-diff needs --base <build> and --target <build>');
    const unknownMap = await cli(['perf-diff', '--base', 'base', '--target', 'slow', '--map', 'nowhere']);
    expect(unknownMap.code).toBe(2);
    expect(unknownMap.stderr).toContain('answered 404: Map not found.');
  }, 120_000);
});

describe('framedeck run-profile-test', () => {
  it('exports the run contract with the CI key, waits for the events, then gates against the baseline', async () => {
    const buildId = `ci-${Date.now()}`;
    const { code, stdout, stderr } = await cli(
      [
        'run-profile-test',
        '--command',
        `"${process.execPath}" "${GAME}"`,
        '--baseline',
        'base',
        '--build',
        buildId,
        '--branch',
        'feature/bridge-lods',
        '--commit',
        '0123abcd',
        '--scenario',
        'bridge-flythrough',
        '--map',
        'bridge',
        '--fail-on-regression',
        '--ingest-key-file',
        keyFiles.ci,
        '--poll-interval',
        '1',
        '--settle',
        '3',
      ],
      { FRAMEDECK_INGEST_URL: INGEST_URL, PROFILE_SLOW_REGION: '1.3' },
    );
    expect(stdout).toContain(`profile-game: sent 4000 samples of build ${buildId}`);
    expect(stderr).toContain(`run-profile-test: 4,000 events stored; comparing with base`);
    expect(stderr).not.toContain('not a CI key');
    expect(code).toBe(1);
    expect(stdout).toMatch(/^Verdict: WORSE/m);

    // What landed: the run's build, its branch, commit and scenario, and source automated
    // although every event claimed to come from a player.
    const rows = await queryRows<Record<string, string>>(
      api.clickhouse,
      sql`SELECT toString(source) AS source, attributes.value[indexOf(attributes.key, 'run.branch')] AS branch,
                 attributes.value[indexOf(attributes.key, 'run.commit')] AS commit,
                 attributes.value[indexOf(attributes.key, 'run.scenario')] AS scenario, count() AS n
            FROM events WHERE project_id = ${tenant.projectId} AND build_id = ${buildId}
           GROUP BY source, branch, commit, scenario`,
    );
    // count() comes as a number or a string depending on the engine's JSON output settings.
    expect(rows.map((row) => ({ ...row, n: Number(row.n) }))).toEqual([
      {
        source: 'automated',
        branch: 'feature/bridge-lods',
        commit: '0123abcd',
        scenario: 'bridge-flythrough',
        n: 4000,
      },
    ]);
  }, 300_000);

  it('returns a failing command’s exit code without gating', async () => {
    const { code, stderr } = await cli([
      'run-profile-test',
      '--command',
      'exit 3',
      '--baseline',
      'base',
      '--build',
      'never',
    ]);
    expect(code).toBe(3);
    expect(stderr).toContain('the command failed (exit 3); no gate run');
  }, 120_000);
});
