import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { inheritedEnv, REPO_ROOT } from '../support/config.js';
import { useTempDir } from '../support/temp-dir.js';

/**
 * `npm test` repeats each failed run's failures after its last run (tools/failed-tests.mjs, from
 * vitest's JSON report), since CI keeps only a log's tail.
 */
const run = promisify(execFile);
const listFailures = async (report: string) =>
  (
    await run('node', ['tools/failed-tests.mjs', report, 'legacy engine, whole suite'], {
      cwd: REPO_ROOT,
      env: inheritedEnv(),
    })
  ).stdout;

describe('the failures listed at the end of npm test', () => {
  const dir = useTempDir('fd-failed-tests-');

  it('names each failed test and each file that failed outside its tests, with the first line of the error', async () => {
    const report = join(dir(), 'report.json');
    await writeFile(
      report,
      JSON.stringify({
        testResults: [
          {
            name: `${REPO_ROOT}tests/api/a.test.ts`,
            status: 'failed',
            message: '',
            assertionResults: [
              { fullName: 'a passes', status: 'passed', failureMessages: [] },
              {
                fullName: 'a counts',
                status: 'failed',
                failureMessages: ['\u001b[31mAssertionError: expected 2 to be 3\u001b[39m\n    at a.test.ts:9'],
              },
            ],
          },
          {
            name: `${REPO_ROOT}tests/api/b.test.ts`,
            status: 'failed',
            message: 'Error: hook timed out in 120000ms\nstack',
            assertionResults: [],
          },
          { name: `${REPO_ROOT}tests/api/c.test.ts`, status: 'passed', message: '', assertionResults: [] },
        ],
      }),
    );
    expect((await listFailures(report)).split('\n')).toEqual([
      '[framedeck] legacy engine, whole suite: 2 failure(s):',
      '  FAILED tests/api/a.test.ts > a counts: AssertionError: expected 2 to be 3',
      '  FAILED tests/api/b.test.ts: Error: hook timed out in 120000ms',
      '',
    ]);
  });

  it('says so when vitest stopped before writing a report', async () => {
    expect(await listFailures(join(dir(), 'missing.json'))).toMatch(/legacy engine, whole suite: no test report/);
  });
});
