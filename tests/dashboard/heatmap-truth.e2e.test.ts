import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportedQuantile } from '@framedeck/analytics';
import { uploadMap } from '../analytics/api-helpers.js';
import { insertEvents, type FixtureEvent } from '../analytics/event-fixtures.js';
import { runCli, startService, waitHealthy, type RunningService } from '../support/processes.js';
import { connectTestStack } from '../support/stack.js';
import { launchBrowser, type TestBrowser } from './support/browser.js';
import { canvasPixelAt } from './support/canvas-pixel-at.js';
import { solidPng } from './support/png-image.js';

// A port of its own, so this file's API never collides with another browser test's on 18080.
const PORT = '18090';
const APP_ORIGIN = `http://127.0.0.1:${PORT}`;
const API_URL = `${APP_ORIGIN}/api`;
const HOUR = 3_600_000;

// A 200 × 200 world on an 800 × 800 grey image (taller than the room a 900 px screen leaves,
// so the page must scale it down): 4 px per world unit, cells of 25 units (100 px).
const WORLD = 200;
const IMAGE = 800;
const GREY: [number, number, number] = [40, 40, 40];
const CANVAS = '[data-testid="heatmap-canvas"]';

/**
 * The cells of the first row (y 12.5), by their fps under the project's default threshold
 * profile (good ≥ 60, warn ≥ 30): a 59 fps cell is "warn" in every view. Build 2.1.0 changes
 * cell B from 90 to 20 fps; cell C has 5 samples (fewer than the default 30), cell E is the one
 * Switch cell.
 */
const CELLS = {
  A: { x: 12.5, fps: { '2.0.0': 59, '2.1.0': 59 }, samples: 40, platform: 'pc' },
  B: { x: 37.5, fps: { '2.0.0': 90, '2.1.0': 20 }, samples: 40, platform: 'pc' },
  C: { x: 62.5, fps: { '2.0.0': 20 }, samples: 5, platform: 'pc' },
  D: { x: 87.5, fps: { '2.0.0': 25, '2.1.0': 25 }, samples: 40, platform: 'pc' },
  E: { x: 112.5, fps: { '2.0.0': 40 }, samples: 40, platform: 'switch' },
} as const;
const ROW_Y = 12.5;
type CellName = keyof typeof CELLS;
/**
 * Build 3.0.0 has one cell on two floors: 90 fps on the ground (z 0), 20 fps upstairs (z 10);
 * together a warn-looking 55 fps that is true of neither floor.
 */
const FLOORS = { x: 162.5, build: '3.0.0', ground: { z: 0, fps: 90 }, upstairs: { z: 10, fps: 20 }, samples: 40 };

/** The centre of a cell in the canvas's pixel space. */
const pixelAtX = (x: number) => ({ x: x * (IMAGE / WORLD), y: IMAGE - ROW_Y * (IMAGE / WORLD) });

/** A call of GET …/heatmap (not the page's own address, which ends the same way). */
const isHeatmapCall = (r: Request) => new URL(r.url()).pathname.endsWith(`/heatmap`) && r.url().includes('/api/v1/');

type Bootstrap = { projectId: string; user: { email: string; password: string }; keys: { full: string } };

type Spot = { x: number; z?: number; fps: number; samples: number; platform: string; buildId: string };

/** `samples` frame events at one spot of the row, spread ±2 units around x within its cell and over 5 hours. */
function framesAt(projectId: string, spot: Spot): FixtureEvent[] {
  return Array.from({ length: spot.samples }, (_, i) => ({
    projectId,
    eventName: 'frame',
    at: new Date(Date.now() - (1 + (i % 5)) * HOUR),
    playerId: `p${i % 7}`,
    mapId: 'e2e_truth',
    position: [spot.x + ((i % 5) - 2), ROW_Y + ((i % 3) - 1), spot.z ?? 0],
    fps: spot.fps,
    frameTimeMs: 1000 / spot.fps,
    platform: spot.platform,
    buildId: spot.buildId,
  }));
}

function frames(projectId: string): FixtureEvent[] {
  const spots: Spot[] = [
    ...Object.values(CELLS).flatMap((cell) =>
      Object.entries(cell.fps).map(([buildId, fps]) => ({ ...cell, fps, buildId })),
    ),
    ...[FLOORS.ground, FLOORS.upstairs].map((floor) => ({
      x: FLOORS.x,
      z: floor.z,
      fps: floor.fps,
      samples: FLOORS.samples,
      platform: 'pc',
      buildId: FLOORS.build,
    })),
  ];
  return spots.flatMap((spot) => framesAt(projectId, spot));
}

const isGrey = ([r, g, b]: number[]) => Math.max(r!, g!, b!) - Math.min(r!, g!, b!) <= 30;
const saturation = ([r, g, b]: number[]) => Math.max(r!, g!, b!) - Math.min(r!, g!, b!);

/**
 * The heatmap that tells the truth (issue #18, item 2), in Chromium against the built API on
 * the real stack: absolute colours from the threshold profile, faded low-sample cells, the
 * ranked worst areas, filters in the URL, and the 1440 × 900 fit.
 */
describe('heatmap page: absolute scale, minimum samples, worst areas, filters', () => {
  let api: RunningService;
  let browser: TestBrowser;
  let page: Page;
  let tenant: Bootstrap;
  let heatmapPath: string;

  const open = async (query: string) => {
    await page.goto(`${APP_ORIGIN}${heatmapPath}?${query}`);
    const canvas = page.getByTestId('heatmap-canvas');
    // Cells drawn over the map image, not over the blank stage shown while the image loads.
    await expect.poll(() => canvas.getAttribute('data-backdrop')).toBe('ready');
    await expect.poll(() => canvas.getAttribute('data-cells-drawn')).not.toBe('0');
  };
  const pixelAt = (x: number) => canvasPixelAt(page, CANVAS, pixelAtX(x).x, pixelAtX(x).y);
  const pixel = (name: CellName) => pixelAt(CELLS[name].x);

  beforeAll(async () => {
    const created = await runCli(['bootstrap', '--plan', 'pro', '--json']);
    expect(created.code, created.stderr).toBe(0);
    tenant = JSON.parse(created.stdout) as Bootstrap;
    heatmapPath = `/projects/${tenant.projectId}/heatmap`;
    api = startService('api', {
      FRAMEDECK_API_PORT: PORT,
      FRAMEDECK_APP_ORIGIN: APP_ORIGIN,
      FRAMEDECK_API_METRICS_PORT: '18490',
    });
    await waitHealthy(`${APP_ORIGIN}/readyz`, api, 60_000);

    const stack = connectTestStack();
    try {
      await insertEvents(stack.clickhouse, frames(tenant.projectId));
    } finally {
      await stack.close();
    }
    const upload = await uploadMap(
      { baseUrl: API_URL },
      {
        key: tenant.keys.full,
        projectId: tenant.projectId,
        fields: {
          name: 'E2E Truth',
          mapId: 'e2e_truth',
          worldMinX: 0,
          worldMinY: 0,
          worldMaxX: WORLD,
          worldMaxY: WORLD,
        },
        file: { bytes: solidPng(IMAGE, IMAGE, GREY) },
      },
    );
    expect(upload.status).toBeLessThan(300);

    browser = await launchBrowser();
    page = browser.page;
    await page.goto(`${APP_ORIGIN}${heatmapPath}`);
    await page.getByLabel('Email').fill(tenant.user.email);
    await page.getByLabel('Password').fill(tenant.user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${APP_ORIGIN}${heatmapPath}`);
  });

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('colours fps by the threshold profile: 59 fps is the same warn colour in two builds, whatever the other cells do', async () => {
    await open('metric=fps&buildId=2.0.0');
    const legend = page.getByRole('region', { name: 'Legend' });
    await expect.poll(() => legend.textContent()).toMatch(/Good≥ 60 fps.*Warn30 – 60 fps.*Bad< 30 fps/);
    expect(await legend.textContent()).toContain('“Default”');
    const first = { A: await pixel('A'), B: await pixel('B'), D: await pixel('D') };

    await open('metric=fps&buildId=2.1.0');
    await expect.poll(() => pixel('B')).not.toEqual(first.B);
    const second = { A: await pixel('A'), B: await pixel('B'), D: await pixel('D') };

    // A is warn (yellow: red and green high, blue low) in both views, pixel for pixel, although
    // B went from the best cell on screen (90 fps) to the worst (20 fps).
    expect(second.A).toEqual(first.A);
    expect(first.A[0]).toBeGreaterThan(120);
    expect(first.A[1]).toBeGreaterThan(100);
    expect(first.A[2]).toBeLessThan(60);
    // B turned from good to bad, the colour D (25 fps, bad) has in both views.
    expect(second.B).toEqual(second.D);
    expect(second.D).toEqual(first.D);
    expect(first.B).not.toEqual(first.D);
  });

  it('bands the tail metrics the alert rules use, so a rule’s link opens on its own metric', async () => {
    await open('metric=hitch_share_33ms&buildId=2.0.0');
    const legend = page.getByRole('region', { name: 'Legend' });
    await expect.poll(() => legend.textContent()).toMatch(/Hitches > 33\.3 ms \(%\).*Good≤ 1 %.*Warn1 – 5 %.*Bad> 5 %/);
    expect(await page.getByTestId('rejected-params').count()).toBe(0);
    // A's frames take 16.9 ms (no hitch: good, green), D's 40 ms (all hitches: bad, red).
    const [a, d] = [await pixel('A'), await pixel('D')];
    expect(a[1]).toBeGreaterThan(a[0]);
    expect(d[0]).toBeGreaterThan(d[1]);
  });

  it('fades cells with fewer samples than the minimum, and unfades them when the minimum is lowered', async () => {
    await open('metric=fps&buildId=2.0.0');
    const canvas = page.getByTestId('heatmap-canvas');
    await expect.poll(() => canvas.getAttribute('data-cells-faded')).toBe('1');
    // C (5 samples, 20 fps) and D (40 samples, 25 fps) are both bad; C is drawn much fainter.
    const faded = await pixel('C');
    const solid = await pixel('D');
    expect(isGrey(faded)).toBe(false);
    expect(saturation(faded)).toBeLessThan(saturation(solid) / 2);

    await open('metric=fps&buildId=2.0.0&minSamples=5');
    await expect.poll(() => canvas.getAttribute('data-cells-faded')).toBe('0');
    expect(await pixel('C')).toEqual(solid);
  });

  it('ranks the worst areas by p95 frame time, leaving out low-sample cells; a row focuses its cell', async () => {
    await open('metric=frame_time&buildId=2.0.0');
    const panel = page.getByRole('region', { name: 'Worst areas' });
    const rows = panel.getByRole('button');
    await expect.poll(() => rows.count()).toBe(4);
    const places = (await panel.locator('.worst-area-place').allTextContents()).map((t) => t.replace(/\s/g, ''));
    // D 40 ms, E 25 ms, A 16.9 ms, B 11.1 ms; C (5 samples) is not ranked.
    expect(places).toEqual(['87.5,12.5', '112.5,12.5', '12.5,12.5', '37.5,12.5']);
    // p95 as the API reports it: the nearest-rank value's log bucket (log-histogram.ts).
    const p95 = reportedQuantile(40).toFixed(1).replace('.', '\\.');
    expect(await rows.first().textContent()).toMatch(
      new RegExp(`p95 ${p95} ms.*40 samples.*hitches 100\\.0%.*pc 100%`),
    );
    expect(await rows.nth(1).textContent()).toContain('switch 100%');

    await rows.first().click();
    await expect.poll(() => new URL(page.url()).searchParams.get('focus')).toBe('87.5,12.5');
    const readout = page.getByRole('region', { name: 'Hovered cell' });
    await expect.poll(() => readout.textContent()).toContain('Centre (x, y)87.5, 12.5');
    expect(await readout.textContent()).toContain('BandBad');
    await browser.screenshot('heatmap-absolute');
  });

  it('filters by platform and source through the URL: the request carries them and the map changes', async () => {
    await open('metric=fps&buildId=2.0.0');
    const canvas = page.getByTestId('heatmap-canvas');
    await expect.poll(() => canvas.getAttribute('data-cells-drawn')).toBe('5');
    expect(await page.getByTestId('source-scope').textContent()).toContain('Players + automated runs');

    const switchOnly = page.waitForRequest(
      (r) => isHeatmapCall(r) && new URL(r.url()).searchParams.get('platform') === 'switch',
    );
    await page.getByLabel('Platform').selectOption('switch');
    await switchOnly;
    await expect.poll(() => canvas.getAttribute('data-cells-drawn')).toBe('1');
    expect(new URL(page.url()).searchParams.get('platform')).toBe('switch');
    expect(await pixel('E')).not.toEqual(GREY);
    expect(isGrey(await pixel('A'))).toBe(true);

    const automated = page.waitForRequest(
      (r) => isHeatmapCall(r) && new URL(r.url()).searchParams.get('source') === 'automated',
    );
    await page.getByLabel('Source').selectOption({ label: 'Automated runs only' });
    await automated;
    await expect.poll(() => page.getByTestId('source-scope').textContent()).toContain('Automated runs only');
    await expect.poll(() => canvas.getAttribute('data-cells-drawn')).toBe('0');
  });

  it('slices a multi-floor cell by height: each floor gets its own band', async () => {
    const canvas = page.getByTestId('heatmap-canvas');
    await open(`metric=fps&buildId=${FLOORS.build}`);
    const bothFloors = await pixelAt(FLOORS.x);
    const upstairs = page.waitForRequest((r) => isHeatmapCall(r) && new URL(r.url()).searchParams.get('zMin') === '5');
    await page.getByLabel('Z from').fill('5');
    await upstairs;
    await expect.poll(() => pixelAt(FLOORS.x)).not.toEqual(bothFloors);
    const upstairsColour = await pixelAt(FLOORS.x);
    expect(new URL(page.url()).searchParams.get('zMin')).toBe('5');

    await open(`metric=fps&buildId=${FLOORS.build}&zMax=5`);
    expect(await canvas.getAttribute('data-cells-drawn')).toBe('1');
    const ground = await pixelAt(FLOORS.x);
    // Ground good (green: g highest), upstairs bad (red: r highest), both together neither.
    expect(ground[1]).toBeGreaterThan(ground[0]);
    expect(upstairsColour[0]).toBeGreaterThan(upstairsColour[1]);
    expect([ground, upstairsColour]).not.toContainEqual(bothFloors);
  });

  it('filters Insights by platform too, saying what the numbers include', async () => {
    const asked = page.waitForRequest(
      (r) =>
        new URL(r.url()).pathname.endsWith('/insights') && new URL(r.url()).searchParams.get('platform') === 'switch',
    );
    await page.goto(`${APP_ORIGIN}/projects/${tenant.projectId}/insights?groupBy=platform&platform=switch`);
    await asked;
    await expect.poll(() => page.locator('.stat-grid').textContent()).toMatch(/Events, total40(?!\d)/);
    expect(await page.getByTestId('source-scope').textContent()).toContain('platform switch');
  });

  it('resets invalid values of a shared link with a note, asking the API only with valid ones', async () => {
    const asked: string[] = [];
    const record = (r: Request) => {
      if (isHeatmapCall(r)) asked.push(r.url());
    };
    page.on('request', record);
    await open('metric=fps&cellSize=7&source=robots&minSamples=-3');
    page.off('request', record);
    const note = page.getByTestId('rejected-params');
    for (const value of ['cellSize=7', 'source=robots', 'minSamples=-3']) {
      expect(await note.textContent()).toContain(value);
    }
    const url = new URL(page.url());
    expect(['cellSize', 'source', 'minSamples'].filter((p) => url.searchParams.has(p))).toEqual([]);
    expect(asked.length).toBeGreaterThan(0);
    for (const request of asked) {
      const params = new URL(request).searchParams;
      expect(params.get('cellSize')).toBe('25');
      expect(params.has('source')).toBe(false);
    }
  });

  it('keeps a correct count legend in Events mode', async () => {
    await open('mode=events&event=frame&buildId=2.0.0');
    const legend = page.getByRole('region', { name: 'Legend' });
    await expect.poll(() => legend.textContent()).toContain('Events per cell · more is hotter');
    expect(await legend.textContent()).not.toContain('lower is better');
    const ticks = await legend.locator('.legend-ticks span').allTextContents();
    expect(new Set(ticks).size).toBe(ticks.length);
  });

  it('fits the map and its panel on a 1440 × 900 screen', async () => {
    await open('metric=fps');
    const viewport = page.viewportSize()!;
    expect(viewport).toEqual({ width: 1440, height: 900 });
    for (const box of [
      await page.getByTestId('heatmap-canvas').boundingBox(),
      await page.locator('.heatmap-side').boundingBox(),
    ]) {
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
    }
    // Nothing below the fold either: the page does not scroll at all.
    const scrollHeight = await page.evaluate(
      () =>
        (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document.documentElement
          .scrollHeight,
    );
    expect(scrollHeight).toBeLessThanOrEqual(viewport.height);
    await browser.screenshot('heatmap-1440x900');
  });

  it('kept the pages free of script errors and CSP violations', () => {
    expect(browser.problems).toEqual([]);
  });
});
