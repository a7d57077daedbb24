// Lists the failures of a vitest run from its JSON report, one line each, so that `npm test` can
// repeat them after its last run: CI keeps only the tail of a long log, and the first run's
// failures are otherwise buried under the second run's output.
//   node tools/failed-tests.mjs <report.json> <label>
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [reportFile, label = 'run'] = process.argv.slice(2);
const root = new URL('..', import.meta.url).pathname;
/** A failure message's first line, without colour codes, short enough to read in a log's tail. */
const firstLine = (message = '') =>
  message
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim()
    .slice(0, 400) ?? '(no message)';

if (!reportFile || !existsSync(reportFile)) {
  console.log(`[framedeck] ${label}: no test report (vitest stopped before writing one; its output above says why)`);
  process.exit(0);
}
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const failures = [];
for (const file of report.testResults ?? []) {
  const name = relative(root, file.name);
  const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
  // A file that failed outside any test (its setup, an import) has a message of its own.
  if (file.status === 'failed' && failedTests.length === 0) failures.push(`${name}: ${firstLine(file.message)}`);
  for (const test of failedTests) failures.push(`${name} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
}
console.log(`[framedeck] ${label}: ${failures.length} failure(s)${failures.length ? ':' : ''}`);
for (const failure of failures) console.log(`  FAILED ${failure}`);
