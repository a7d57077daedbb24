import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { inheritedEnv, REPO_ROOT } from '../support/config.js';
import { useTempDir } from '../support/temp-dir.js';

/**
 * docs/configuration.md is generated from the configuration schemas (tools/config-reference.mjs,
 * `npm run docs:config`). The check runs the generator as a plain node script, on the services'
 * built config (npm test builds first), and compares with the committed file.
 */
const run = promisify(execFile);
const check = (file?: string) =>
  run('node', ['tools/config-reference.mjs', '--check', ...(file ? [file] : [])], {
    cwd: REPO_ROOT,
    env: inheritedEnv(),
  });

describe('configuration reference', () => {
  const dir = useTempDir('fd-config-reference-');

  it('docs/configuration.md is what the schemas generate (run npm run docs:config after changing a config schema)', async () => {
    await expect(check()).resolves.toBeDefined();
  });

  it('lists every service variable with its default, and notices a reference that drifted', async () => {
    const generated = join(dir(), 'generated.md');
    await run('node', ['tools/config-reference.mjs', '--out', generated], { cwd: REPO_ROOT, env: inheritedEnv() });
    const text = await readFile(generated, 'utf8');
    expect(text).toMatch(/\| `FRAMEDECK_API_PORT` +\| `8080` +\| integer 1–65535 +\| API +\|/);
    expect(text).toMatch(/\| `FRAMEDECK_INGEST_MAX_INFLATED_BYTES` +\| `4194304` +\|/);
    await writeFile(generated, text.replace(/(`FRAMEDECK_API_PORT` +\| )`8080`/, '$1`9090`'));
    const failure = await check(generated).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('FRAMEDECK_API_PORT');
  });
});
