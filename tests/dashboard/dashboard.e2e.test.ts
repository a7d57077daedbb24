import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateTelemetry, TelemetrySender, WORLD } from '@framedeck/sender';
import { runCli, startService, waitHealthy, type RunningService } from '../support/processes.js';
import { TEST_ENV } from '../support/config.js';
import { waitFor } from '../support/wait.js';
import { launchBrowser, type TestBrowser } from './support/browser.js';
import { countColouredPixels } from './support/canvas-pixels.js';
import { solidPng } from './support/png-image.js';

const APP_ORIGIN = TEST_ENV.FRAMEDECK_APP_ORIGIN!;
const INGEST_URL = TEST_ENV.FRAMEDECK_INGEST_URL!;
const MAP_GREY: [number, number, number] = [40, 40, 40];

type Bootstrap = { projectId: string; projectName: string; user: { email: string; password: string } };

/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core) against the
 * built services on the real stack: sign in → create an ingest key → upload a map → send
 * simulated telemetry through the gateway with that key → the heatmap is drawn. Screenshots of
 * each step are kept in artifacts/screenshots/.
 */
describe('dashboard in a browser', () => {
  const services: RunningService[] = [];
  let browser: TestBrowser;
  let page: Page;
  let tenant: Bootstrap;
  let workDir: string;

  beforeAll(async () => {
    const created = await runCli(['bootstrap', '--plan', 'pro', '--json']);
    expect(created.code, created.stderr).toBe(0);
    tenant = JSON.parse(created.stdout) as Bootstrap;
    for (const [name, port] of [
      ['api', TEST_ENV.FRAMEDECK_API_PORT],
      ['ingest-gateway', TEST_ENV.FRAMEDECK_INGEST_PORT],
      ['events-consumer', TEST_ENV.FRAMEDECK_CONSUMER_HEALTH_PORT],
    ] as const) {
      const service = startService(name);
      services.push(service);
      await waitHealthy(`http://127.0.0.1:${port}/readyz`, service, 60_000);
    }
    browser = await launchBrowser();
    page = browser.page;
    workDir = mkdtempSync(join(tmpdir(), 'framedeck-e2e-'));
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all(services.map((s) => s.stop()));
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('refuses a wrong password with a plain message', async () => {
    await page.goto(`${APP_ORIGIN}/projects`);
    await page.waitForURL(/\/sign-in\?next=%2Fprojects$/);
    await page.getByLabel('Email').fill(tenant.user.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Incorrect email or password');
  });

  it('signs in and lands where the user was going, with the project status', async () => {
    await page.getByLabel('Password').fill(tenant.user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${APP_ORIGIN}/projects`);
    await page.getByRole('link', { name: tenant.projectName }).first().waitFor();
    await page.getByText('Events, last 24 h').first().waitFor();
    await browser.screenshot('01-projects');
  });

  let ingestKey: string;

  it('creates an ingest key and shows its value once, with a copy button', async () => {
    await page.goto(`${APP_ORIGIN}/projects/${tenant.projectId}/keys`);
    await page.getByRole('radio', { name: /Ingest/ }).check();
    await page.getByLabel('Name (optional)').fill('e2e ingest');
    await page.getByRole('button', { name: 'Create key' }).click();
    const value = page.getByTestId('secret-value');
    await value.waitFor();
    ingestKey = (await value.textContent())!.trim();
    expect(ingestKey).toMatch(/^fd_[A-Za-z0-9_-]{43}$/);
    await expect.poll(() => page.getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
    const row = page.getByRole('row', { name: /e2e ingest/ });
    await expect.poll(() => row.textContent()).toContain('events:write');
    await browser.screenshot('02-api-key-created');

    // Shown once: after a reload the list has the key, never its value.
    await page.reload();
    await page.getByRole('row', { name: /e2e ingest/ }).waitFor();
    expect(await page.content()).not.toContain(ingestKey);
  });

  it('uploads a map with its world bounds', async () => {
    const imagePath = join(workDir, 'e2e-map.png');
    writeFileSync(imagePath, solidPng(400, 400, MAP_GREY));
    await page.goto(`${APP_ORIGIN}/projects/${tenant.projectId}/maps`);
    await page.getByLabel('Name', { exact: true }).fill('E2E Arena');
    await page.getByLabel('Map ID').fill('e2e_arena');
    await page.getByLabel(/^Image/).setInputFiles(imagePath);
    await page.getByLabel('Min X (left edge)').fill(String(WORLD.minX));
    await page.getByLabel('Max X (right edge)').fill(String(WORLD.maxX));
    await page.getByLabel('Min Y (bottom edge)').fill(String(WORLD.minY));
    await page.getByLabel('Max Y (top edge)').fill(String(WORLD.maxY));
    await page.getByRole('button', { name: 'Upload map' }).click();
    await page.getByText('Map “E2E Arena” uploaded.').waitFor();
    const row = page.getByRole('row', { name: /E2E Arena/ });
    await expect.poll(() => row.textContent()).toContain('400 × 400');
    await browser.screenshot('03-map-uploaded');
  });

  it('draws the heatmap of telemetry sent through the gateway with the new key', async () => {
    const sender = new TelemetrySender({ ingestUrl: INGEST_URL, apiKey: ingestKey });
    const events = [
      ...simulateTelemetry({
        players: 4,
        minutes: 2,
        mapId: 'e2e_arena',
        seed: 9,
        startTimeMs: Date.now() - 15 * 60_000,
      }),
    ];
    expect(events.length).toBeGreaterThan(50);
    const sent = await sender.send(events);
    expect(sent.reduce((n, b) => n + b.events, 0)).toBe(events.length);

    await page.goto(`${APP_ORIGIN}/projects/${tenant.projectId}/heatmap?mapId=e2e_arena&metric=fps`);
    const canvas = page.getByTestId('heatmap-canvas');
    // Events are visible once the consumer has written them: refresh until cells are drawn.
    await waitFor(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await canvas.waitFor();
        return Number(await canvas.getAttribute('data-cells-drawn')) > 0;
      },
      { timeoutMs: 60_000, intervalMs: 1_000, what: 'heatmap cells on screen' },
    );

    // The pixels, not only the DOM: cells are the only non-grey pixels of the grey map.
    const coloured = await countColouredPixels(page, '[data-testid="heatmap-canvas"]');
    expect(coloured.count).toBeGreaterThan(100);

    // Hover a coloured pixel: the readout shows that cell's numbers in real units.
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(
      box.x + ((coloured.first!.x + 3) / coloured.width) * box.width,
      box.y + ((coloured.first!.y + 3) / coloured.height) * box.height,
    );
    const readout = page.getByRole('region', { name: 'Hovered cell' });
    await expect.poll(() => readout.textContent()).toMatch(/Avg fps[\d.,]+ fps/);
    await expect.poll(() => page.getByRole('figure').textContent()).toContain('FPS (fps)');
    await browser.screenshot('04-heatmap-performance');

    // Events mode: the event picker lists what was sent.
    await page.getByRole('radio', { name: 'Events' }).check();
    await expect.poll(async () => Number(await canvas.getAttribute('data-cells-drawn'))).toBeGreaterThan(0);
    await browser.screenshot('05-heatmap-events');
  });

  it('shows every analytics page with the same data, without an error', async () => {
    const pages: [string, string, string][] = [
      ['06-overview', '', 'DAU (today, UTC)'],
      ['07-insights', '/insights?groupBy=event_name', 'Events by event'],
      ['08-builds', '/builds', 'Comparison'],
      ['09-retention', '/retention', 'Day 0'],
      ['10-funnels', '/funnels', 'of the previous step'],
    ];
    for (const [shot, path, text] of pages) {
      await page.goto(`${APP_ORIGIN}/projects/${tenant.projectId}${path}`);
      await page.getByText(text, { exact: false }).first().waitFor();
      await expect.poll(() => page.locator('.loading, [aria-busy="true"]').count()).toBe(0);
      expect(await page.getByRole('alert').count(), `${path}: ${await page.getByRole('alert').allTextContents()}`).toBe(
        0,
      );
      await browser.screenshot(shot);
    }
  });

  it('creates an alert rule on the map', async () => {
    await page.goto(`${APP_ORIGIN}/projects/${tenant.projectId}/alerts`);
    await page.getByLabel('Name', { exact: true }).fill('Arena FPS');
    await page.getByRole('button', { name: 'Create rule' }).click();
    const row = page.getByRole('row', { name: /Arena FPS/ });
    await expect.poll(() => row.textContent()).toContain('E2E Arena');
    await browser.screenshot('11-alerts');
  });

  it('runs raw SQL in the console and shows the rows', async () => {
    await page.goto(`${APP_ORIGIN}/projects/${tenant.projectId}/sql`);
    await page
      .getByRole('textbox', { name: 'Query' })
      .fill("SELECT map_id, count() AS events FROM events WHERE map_id = 'e2e_arena' GROUP BY map_id");
    await page.getByRole('button', { name: 'Run query' }).click();
    const row = page.getByRole('row', { name: /e2e_arena/ });
    await row.waitFor();
    expect(Number((await row.getByRole('cell').nth(1).textContent())!.replace(/,/g, ''))).toBeGreaterThan(50);
    await browser.screenshot('12-sql-console');

    await page.getByRole('textbox', { name: 'Query' }).fill('SELECT no_such_column FROM events');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The database rejected the query');
  });

  it('lists authorized OAuth apps in the settings', async () => {
    await page.goto(`${APP_ORIGIN}/settings/apps`);
    await page.getByText('No authorized apps').waitFor();
    await browser.screenshot('13-authorized-apps');
  });

  it('explains the Free plan key limit, and a 429 with how long to wait', async () => {
    const created = await runCli(['bootstrap', '--plan', 'free', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const free = JSON.parse(created.stdout) as Bootstrap & { keys: { full: string } };

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(free.user.email);
    await page.getByLabel('Password').fill(free.user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByText('Free plan limit reached').waitFor();
    expect(await page.getByRole('button', { name: 'Create key' }).isDisabled()).toBe(true);
    await browser.screenshot('14-free-key-limit');

    // The tenant's hourly quota (Free: 100) is shared by its keys and its dashboard session.
    await waitFor(
      async () => {
        const res = await fetch(`${APP_ORIGIN}/api/v1/projects`, { headers: { 'x-api-key': free.keys.full } });
        return res.status === 429;
      },
      { timeoutMs: 30_000, intervalMs: 1, what: 'the Free quota to run out' },
    );
    await page.getByRole('link', { name: 'Overview' }).click();
    const alert = page.getByRole('alert').first();
    await expect.poll(() => alert.textContent()).toMatch(/Rate limit reached.*try again in \d+ (min|s)/);
    await browser.screenshot('15-rate-limited');
  });

  it('kept the page free of script errors and CSP violations', () => {
    expect(browser.problems).toEqual([]);
  });
});
