import { describe, expect, it } from 'vitest';
import { UsageError } from './accounts.command.js';
import { parsePerfDiffOptions } from './perf-diff.command.js';
import { parseRunProfileTestOptions, resolveRun, runEnvironment } from './run-profile-test.command.js';

const NOW = new Date('2026-11-24T04:30:15Z');
const noGit = () => undefined;
const git = (args: string[]) => (args.includes('--abbrev-ref') ? 'main' : '0123456789abcdef');

describe('the run of run-profile-test', () => {
  it('takes flags first, then the run contract already in the environment, then git', () => {
    expect(resolveRun({ build: 'b1', branch: 'f', commit: 'c', scenario: 's' }, { buildId: 'env' }, NOW, git)).toEqual({
      buildId: 'b1',
      branch: 'f',
      commit: 'c',
      scenario: 's',
    });
    expect(resolveRun({}, { buildId: 'nightly-7', scenario: 'soak' }, NOW, git)).toEqual({
      buildId: 'nightly-7',
      branch: 'main',
      commit: '0123456789abcdef',
      scenario: 'soak',
    });
  });

  it('names a build unique to the run when nothing names one', () => {
    expect(resolveRun({}, {}, NOW, git).buildId).toBe('run-0123456789-20261124T043015');
    expect(resolveRun({}, {}, NOW, noGit)).toEqual({
      buildId: 'run-local-20261124T043015',
      branch: undefined,
      commit: undefined,
      scenario: undefined,
    });
  });

  it('exports the run contract and the ingest endpoint and key on top of the inherited environment', () => {
    const env = runEnvironment(
      { run: { buildId: 'b1', branch: 'main', scenario: 's' }, ingestUrl: 'http://ingest', ingestKey: 'fd_ci' },
      { PATH: '/bin', FRAMEDECK_BUILD_ID: 'stale' },
    );
    expect(env).toEqual({
      PATH: '/bin',
      FRAMEDECK_BUILD_ID: 'b1',
      FRAMEDECK_GIT_BRANCH: 'main',
      FRAMEDECK_TEST_SCENARIO: 's',
      FRAMEDECK_INGEST_URL: 'http://ingest',
      FRAMEDECK_INGEST_KEY: 'fd_ci',
    });
  });

  it('refuses what cannot run or gate', () => {
    const defaults = { run: {}, ingestUrl: 'http://ingest', ingestKey: undefined };
    expect(() => parseRunProfileTestOptions({ baseline: '1.4' }, defaults)).toThrow(UsageError);
    expect(() => parseRunProfileTestOptions({ command: 'x', baseline: '1.4', build: '1.4' }, defaults)).toThrow(
      /must differ/,
    );
    expect(() => parsePerfDiffOptions({ base: 'a', target: 'b', source: 'bots' })).toThrow(/--source/);
    expect(() => parsePerfDiffOptions({ base: 'a', target: 'b', 'cell-size': '2.5' })).toThrow(/--cell-size/);
  });
});
