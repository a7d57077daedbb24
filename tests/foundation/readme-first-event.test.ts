import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { renderWorldMapPng } from '@framedeck/sender';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../api/support/api-harness.js';
import { INGEST_URL, newTenant, startConsumer, startGateway, type Tenant } from '../ingest/ingest-harness.js';
import type { RunningService } from '../support/processes.js';
import { inheritedEnv, REPO_ROOT, STATE_DIR } from '../support/config.js';
import { waitFor } from '../support/wait.js';

/**
 * The README's five-minute path, run as written: its curl command uploads a map, its
 * first-event.mjs sends events with the TypeScript sender, and the heatmap then shows them.
 * The snippets are read from README.md, so the README cannot drift from what works.
 */
const run = promisify(execFile);

/** The body of the README's fenced block of `language` that contains `marker`. */
function readmeBlock(readme: string, language: string, marker: string): string {
  const blocks = [...readme.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
  const block = blocks.find((b) => b.includes(marker));
  if (!block) throw new Error(`README.md has no \`\`\`${language} block containing ${marker}`);
  // The blocks sit in a numbered list: drop the list's indentation.
  const indent = Math.min(
    ...block
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => l.match(/^ */)![0].length),
  );
  return block
    .split('\n')
    .map((l) => l.slice(indent))
    .join('\n');
}

let api: Awaited<ReturnType<typeof startApi>>;
let gateway: RunningService;
let consumer: RunningService;
let tenant: Tenant;
let workDir: string;

beforeAll(async () => {
  api = await startApi();
  tenant = await newTenant(api.pool);
  gateway = await startGateway();
  consumer = await startConsumer();
  workDir = await mkdtemp(`${tmpdir()}/framedeck-readme-`);
}, 120_000);

afterAll(async () => {
  await Promise.allSettled([gateway?.stop(), consumer?.stop(), api?.close()]);
  await rm(workDir, { recursive: true, force: true });
});

describe('the README’s first event on a heatmap', () => {
  it('works as written: the map uploads, the events are accepted and the heatmap shows them', async () => {
    const readme = await readFile(`${REPO_ROOT}README.md`, 'utf8');

    // Step 2: the curl command, against this test's API instead of the default address.
    const upload = readmeBlock(readme, 'sh', '/v1/maps/upload').replace('http://127.0.0.1:8080/api', api.baseUrl);
    await writeFile(`${workDir}/arena.png`, renderWorldMapPng(400));
    const uploaded = await run('bash', ['-euo', 'pipefail', '-c', upload], {
      cwd: workDir,
      env: inheritedEnv({ KEY: tenant.keys.readWrite!, PROJECT: tenant.projectId }),
    });
    expect(JSON.parse(uploaded.stdout)).toMatchObject({ success: true, data: { mapId: 'arena' } });

    // Step 3: first-event.mjs from the repository (so `@framedeck/sender` resolves as it does there).
    const script = `${STATE_DIR}/readme-first-event.mjs`;
    await writeFile(script, readmeBlock(readme, 'js', '// first-event.mjs'));
    const sent = await run(process.execPath, [script], {
      env: inheritedEnv({ INGEST_URL, INGEST_KEY: tenant.keys.ingest! }),
    });
    expect(sent.stdout).toContain('accepted 50 events');

    // Step 4: the heatmap of the map holds the 50 events.
    const cells = await waitFor(
      async () => {
        const res = await api.request(`/v1/projects/${tenant.projectId}/heatmap?mapId=arena&days=1&cellSize=25`, {
          key: tenant.keys.readWrite!,
          projectId: tenant.projectId,
        });
        const data = (res.body as { data?: { event_count: number }[] }).data ?? [];
        return data.reduce((n, c) => n + c.event_count, 0) === 50 ? data : undefined;
      },
      { timeoutMs: 30_000, what: 'the README’s events on the heatmap' },
    );
    expect(cells.length).toBeGreaterThan(10);
  });
});
