import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadMap } from '../analytics/api-helpers.js';
import { insertEvents, type FixtureEvent } from '../analytics/event-fixtures.js';
import { runCli, startService, waitHealthy, type RunningService } from '../support/processes.js';
import { connectTestStack } from '../support/stack.js';
import { TEST_ENV } from '../support/config.js';
import { launchBrowser, type TestBrowser } from './support/browser.js';
import { countColouredPixels } from './support/canvas-pixels.js';
import { solidPng } from './support/png-image.js';

const APP_ORIGIN = TEST_ENV.FRAMEDECK_APP_ORIGIN!;
const API_URL = `${APP_ORIGIN}/api`;
const HOUR = 3_600_000;

// A 200 × 200 world on a 400 × 400 grey image: 2 px per world unit, 64 cells of 25 units.
const WORLD = 200;
const IMAGE = 400;
const CELL = 25;
// The region the compared build is 30 % slower in: x 100–150, y 50–100, i.e. the 2 × 2 cells
// centred at x 112.5/137.5, y 62.5/87.5.
const SLOW = { minX: 100, maxX: 150, minY: 50, maxY: 100 };
const SLOW_CELLS = ['112.5,62.5', '112.5,87.5', '137.5,62.5', '137.5,87.5'];

type Bootstrap = {
  projectId: string;
  user: { email: string; password: string };
  keys: { full: string };
};

/**
 * `perCell` frame samples of a build in every cell, placed inside the cell and spread ±1.5 ms
 * around 16 ms by a fixed pattern (the same for every build: outside the slow region two builds
 * are identical), `slowdown` × in the slow region; timestamps end `hoursAgo` hours ago, so
 * builds are "last seen" in the order the test needs.
 */
function frames(projectId: string, buildId: string, perCell: number, hoursAgo: number, slowdown = 1): FixtureEvent[] {
  const events: FixtureEvent[] = [];
  for (let cx = CELL / 2; cx < WORLD; cx += CELL) {
    for (let cy = CELL / 2; cy < WORLD; cy += CELL) {
      const slow = cx >= SLOW.minX && cx < SLOW.maxX && cy >= SLOW.minY && cy < SLOW.maxY;
      for (let i = 0; i < perCell; i++) {
        const frameTimeMs = (16 + ((i % 7) - 3) * 0.5) * (slow ? slowdown : 1);
        events.push({
          projectId,
          eventName: 'frame',
          at: new Date(Date.now() - (hoursAgo + (i % 3)) * HOUR),
          playerId: `p${i % 11}`,
          mapId: 'e2e_bridge',
          position: [cx + ((i % 5) - 2) * 2, cy + ((i % 3) - 1) * 2],
          fps: 1000 / frameTimeMs,
          frameTimeMs,
          platform: 'pc',
          buildId,
        });
      }
    }
  }
  return events;
}

/**
 * The Builds page finding where a build got worse (issue #18), in a real browser against the
 * built API on the real stack: two builds identical except one region 30 % slower, and a newer
 * build with too few samples to be compared by default.
 */
describe('builds page: where a build got worse', () => {
  let api: RunningService;
  let browser: TestBrowser;
  let page: Page;
  let tenant: Bootstrap;

  beforeAll(async () => {
    const created = await runCli(['bootstrap', '--plan', 'pro', '--json']);
    expect(created.code, created.stderr).toBe(0);
    tenant = JSON.parse(created.stdout) as Bootstrap;
    api = startService('api');
    await waitHealthy(`${APP_ORIGIN}/readyz`, api, 60_000);

    const stack = connectTestStack();
    try {
      await insertEvents(stack.clickhouse, [
        // 42 a cell: six whole turns of the 7-step pattern, so every cell's mean is exactly 16 ms.
        ...frames(tenant.projectId, '1.4.0', 42, 3),
        ...frames(tenant.projectId, '1.5.0', 42, 2, 1.3),
        // The most recently seen build, with 3 samples: never a sensible default.
        ...frames(tenant.projectId, '1.6.0-dev', 3, 0).slice(0, 3),
      ]);
    } finally {
      await stack.close();
    }
    const upload = await uploadMap(
      { baseUrl: API_URL },
      {
        key: tenant.keys.full,
        projectId: tenant.projectId,
        fields: { name: 'E2E Bridge', mapId: 'e2e_bridge', worldMinX: 0, worldMinY: 0, worldMaxX: 200, worldMaxY: 200 },
        file: { bytes: solidPng(IMAGE, IMAGE, [40, 40, 40]) },
      },
    );
    expect(upload.status).toBeLessThan(300);

    browser = await launchBrowser();
    page = browser.page;
    // Signing in from the Builds page's address lands back on it.
    await page.goto(`${APP_ORIGIN}/projects/${tenant.projectId}/builds`);
    await page.getByLabel('Email').fill(tenant.user.email);
    await page.getByLabel('Password').fill(tenant.user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${APP_ORIGIN}/projects/${tenant.projectId}/builds`);
  });

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('compares the two most recent builds with enough samples, cell by cell on the chosen map', async () => {
    const base = page.getByLabel('Base build');
    await base.waitFor();
    expect(await base.inputValue()).toBe('1.4.0');
    expect(await page.getByLabel('Compared build').inputValue()).toBe('1.5.0');

    await page.getByLabel('Map', { exact: true }).selectOption('');
    await page.getByLabel('Map', { exact: true }).selectOption({ label: 'E2E Bridge' });
    const canvas = page.getByTestId('build-diff-canvas');
    await expect.poll(() => canvas.getAttribute('data-cells-drawn')).toBe('64');
    expect(await canvas.getAttribute('data-cells-outlined')).toBe('4');

    // The overall verdict is the answer's: worse, although the map-wide mean moved ~2 %.
    const verdict = page.getByTestId('build-verdict');
    await expect.poll(() => verdict.textContent()).toContain('Worse');
    expect(await verdict.textContent()).toContain('4 of 64 tested cells worse');
    expect(await verdict.textContent()).not.toContain('Unchanged');
    // …and the frame time row of the all-maps table says the same, not the mean's "Unchanged".
    const frameTimeRow = page.getByRole('row', { name: /^Frame time \(ms\)/ }).first();
    expect(await frameTimeRow.textContent()).toMatch(/\+1\.\d%Worse$/);

    // Pixels: unchanged cells are grey on the grey map, so every coloured pixel (red fill,
    // yellow outline) lies in the slow region, image x 200–300, y 200–300, and the first one
    // (in reading order) is its top-left corner.
    const coloured = await countColouredPixels(page, '[data-testid="build-diff-canvas"]');
    expect(coloured.width).toBe(IMAGE);
    expect(coloured.count).toBeGreaterThan(1000);
    expect(coloured.count).toBeLessThanOrEqual(100 * 100);
    expect(coloured.first).toEqual({ x: 200, y: 200 });

    // Hovering a regressed cell (image pixel 225, 225: world 112.5, 87.5) compares both builds there.
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + (225 / IMAGE) * box.width, box.y + (225 / IMAGE) * box.height);
    const readout = page.getByRole('region', { name: 'Hovered cell' });
    await expect.poll(() => readout.textContent()).toContain('Centre (x, y)112.5, 87.5');
    expect(await readout.textContent()).toMatch(/VerdictWorse.*\+4\.80 ms \(\+30\.0%\).*Samples42 → 42/);
    await browser.screenshot('builds-diff');
    await page.mouse.move(0, 0);

    // The legend states the scale and the test.
    const legend = page.getByRole('region', { name: 'Legend' });
    expect(await legend.textContent()).toMatch(/±30%.*5%.*95% confidence.*64 cells.*at least 30 frame samples/s);
  });

  it('lists the regressed cells, each linking to the heatmap at that place', async () => {
    const list = page.getByRole('region', { name: 'Where it got worse' });
    const links = list.getByRole('link');
    await expect.poll(() => links.count()).toBe(4);
    const places = (await links.allTextContents()).map((t) => t.replace(/\s/g, ''));
    expect(places.sort()).toEqual(SLOW_CELLS);
    const firstRow = list.getByRole('row').nth(1);
    expect(await firstRow.textContent()).toMatch(/\+4\.80 ms.*\+30\.0%.*→.*ms.*42 \/ 42/);

    const href = (await links.first().getAttribute('href'))!;
    const target = new URL(href, APP_ORIGIN);
    expect(target.pathname).toBe(`/projects/${tenant.projectId}/heatmap`);
    expect(target.searchParams.get('buildId')).toBe('1.5.0');
    expect(target.searchParams.get('mapId')).toBe('e2e_bridge');
    const focus = target.searchParams.get('focus')!;
    expect(SLOW_CELLS).toContain(focus);

    // The heatmap opens on that cell: outlined and read out.
    await links.first().click();
    await page.waitForURL(/\/heatmap\?/);
    const readout = page.getByRole('region', { name: 'Hovered cell' });
    const [x, y] = focus.split(',');
    await expect.poll(() => readout.textContent()).toContain(`Centre (x, y)${x}, ${y}`);
  });

  it('passes the source filter on: no automated run was seeded, so nothing is compared', async () => {
    await page.goto(`${APP_ORIGIN}/projects/${tenant.projectId}/builds`);
    await page.getByLabel('Source').selectOption({ label: 'Automated runs only' });
    await expect.poll(() => page.getByTestId('build-verdict').textContent()).toContain('Not enough data');
    expect(await page.getByTestId('build-diff-canvas').getAttribute('data-cells-outlined')).toBe('0');
    expect(new URL(page.url()).searchParams.get('source')).toBe('automated');
  });

  it('kept the pages free of script errors and CSP violations', () => {
    expect(browser.problems).toEqual([]);
  });
});
