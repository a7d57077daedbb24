import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportedQuantile } from '@framedeck/analytics';
import { addressesSection, loggingSection, notificationsSection } from '@framedeck/config';
import { createLogger } from '@framedeck/logging';
import { buildAlertEvaluator } from '../../services/alert-evaluator/src/alert-evaluator.js';
import { alertsSection } from '../../services/alert-evaluator/src/config.js';
import { uploadMap } from '../analytics/api-helpers.js';
import { insertEvents, type FixtureEvent } from '../analytics/event-fixtures.js';
import { retireProjectAlerts } from '../alerts/support/alerts-fixtures.js';
import { runCli, startService, waitHealthy, type RunningService } from '../support/processes.js';
import { connectTestStack } from '../support/stack.js';
import { TEST_ENV } from '../support/config.js';
import { waitFor } from '../support/wait.js';
import { launchBrowser, type TestBrowser } from './support/browser.js';
import { solidPng } from './support/png-image.js';

// An API of its own (port, origin, metrics port), so this file can run beside other browser tests.
const PORT = 18_190;
const APP_ORIGIN = `http://127.0.0.1:${PORT}`;
const API_ENV = {
  FRAMEDECK_API_PORT: String(PORT),
  FRAMEDECK_APP_ORIGIN: APP_ORIGIN,
  FRAMEDECK_API_METRICS_PORT: String(PORT + 400),
};
const API_URL = `${APP_ORIGIN}/api`;

type Bootstrap = { projectId: string; user: { email: string; password: string }; keys: { full: string } };

/**
 * A 100 × 100 world of 25-unit cells, smooth on average everywhere, where the cell centred at
 * (12.5, 12.5) has 2 % of its frames at 62.5 ms: its p99 frame time (62.5 ms) is past the
 * default profile's warn limit (50 ms), its average (11 ms) is not.
 */
function tailFrames(projectId: string): FixtureEvent[] {
  const at = new Date(Date.now() - 3_600_000);
  const frame = (x: number, y: number, frameTimeMs: number): FixtureEvent => ({
    projectId,
    at,
    mapId: 'e2e_tails',
    position: [x, y, 0],
    fps: 1000 / frameTimeMs,
    frameTimeMs,
    platform: 'pc',
  });
  const events: FixtureEvent[] = [];
  for (let i = 0; i < 100; i++) events.push(frame(12.5, 12.5, i < 2 ? 62.5 : 10));
  for (const x of [37.5, 62.5, 87.5]) for (let i = 0; i < 20; i++) events.push(frame(x, 12.5, 10));
  return events;
}

/**
 * The alerts page in a real browser against the built API on the real stack (issue #18 item
 * 6): the history names the worst cells with links to the heatmap at each, and rules and threshold
 * profiles are edited, refused with the API's own words, stored and deleted.
 */
describe('alerts page: history that points at the place, rules and profiles edited', () => {
  let api: RunningService;
  let browser: TestBrowser;
  let page: Page;
  let tenant: Bootstrap;
  let ruleId: string;
  const stack = connectTestStack();
  const request = async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const res = await fetch(`${API_URL}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'x-api-key': tenant.keys.full, 'content-type': 'application/json' },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON; tests assert on it
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    const created = await runCli(['bootstrap', '--plan', 'pro', '--json']);
    expect(created.code, created.stderr).toBe(0);
    tenant = JSON.parse(created.stdout) as Bootstrap;
    api = startService('api', API_ENV);
    await waitHealthy(`${APP_ORIGIN}/readyz`, api, 60_000);

    await insertEvents(stack.clickhouse, tailFrames(tenant.projectId));
    const upload = await uploadMap(
      { baseUrl: API_URL },
      {
        key: tenant.keys.full,
        projectId: tenant.projectId,
        fields: { name: 'E2E Tails', mapId: 'e2e_tails', worldMinX: 0, worldMinY: 0, worldMaxX: 100, worldMaxY: 100 },
        file: { bytes: solidPng(200, 200, [40, 40, 40]) },
      },
    );
    expect(upload.status).toBeLessThan(300);
    const maps = await request(`/v1/projects/${tenant.projectId}/maps`);
    const rule = await request(`/v1/projects/${tenant.projectId}/alerts`, {
      method: 'POST',
      json: {
        name: 'Stutter on Tails',
        mapId: maps.body.data.find((m: { mapId: string }) => m.mapId === 'e2e_tails').id,
        metric: 'p99_frame_time',
        failPercentage: 20,
        evaluationDays: 1,
      },
    });
    expect(rule.status).toBe(201);
    ruleId = rule.body.data.id;

    // One evaluation by the real evaluator (in-process), linking this API's dashboard.
    const env = { ...TEST_ENV, ...API_ENV };
    const alerts = buildAlertEvaluator({
      config: {
        alerts: alertsSection(env),
        notifications: notificationsSection(env),
        addresses: addressesSection(env),
      },
      pool: stack.pool,
      clickhouse: stack.clickhouse,
      logger: createLogger('alerts-e2e', loggingSection(env).level),
    });
    await waitFor(
      async () => {
        await alerts.evaluator.runOnce();
        const history = await request(`/v1/projects/${tenant.projectId}/alerts/history?alertId=${ruleId}`);
        return history.body.data.items.length > 0;
      },
      { timeoutMs: 60_000, what: "the rule's first evaluation" },
    );

    browser = await launchBrowser();
    page = browser.page;
    await page.goto(`${APP_ORIGIN}/projects/${tenant.projectId}/alerts?tab=history`);
    await page.getByLabel('Email').fill(tenant.user.email);
    await page.getByLabel('Password').fill(tenant.user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${APP_ORIGIN}/projects/${tenant.projectId}/alerts?tab=history`);
  });

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    if (tenant) await retireProjectAlerts(stack.pool, tenant.projectId);
    await stack.close();
  });

  it('lists the worst cells of an evaluation, each opening the heatmap at that cell', async () => {
    const cells = page.getByRole('list', { name: 'Worst cells of Stutter on Tails' });
    await cells.waitFor();
    const first = cells.getByRole('link').first();
    // The p99 as the API reports it: the nearest-rank value's log bucket (log-histogram.ts).
    expect(await first.textContent()).toBe(`(12.5, 12.5) ${reportedQuantile(62.5).toFixed(1)}`);
    const row = page.getByRole('row', { name: /Stutter on Tails/ }).first();
    expect(await row.textContent()).toContain('triggered');
    expect(await row.textContent()).toContain('50.0 · p99 frame time (ms)');
    const href = new URL((await first.getAttribute('href'))!, APP_ORIGIN);
    expect(href.pathname).toBe(`/projects/${tenant.projectId}/heatmap`);
    expect(Object.fromEntries(href.searchParams)).toEqual({
      mapId: 'e2e_tails',
      cellSize: '25',
      days: '1',
      metric: 'p99_frame_time',
      focus: '12.5,12.5',
    });
    expect(await page.getByRole('link', { name: 'Open the heatmap' }).first().getAttribute('href')).toBe(
      `/projects/${tenant.projectId}/heatmap?mapId=e2e_tails&cellSize=25&days=1&metric=p99_frame_time`,
    );
    await browser.screenshot('alerts-history-worst-cells');

    await first.click();
    await page.waitForURL(/\/heatmap\?/);
    const readout = page.getByRole('region', { name: 'Hovered cell' });
    await expect.poll(() => readout.textContent()).toContain('Centre (x, y)12.5, 12.5');
  });

  it("edits a rule's threshold level, kept after a reload", async () => {
    await page.goto(`${APP_ORIGIN}/projects/${tenant.projectId}/alerts?tab=rules`);
    await page.getByRole('button', { name: 'Edit Stutter on Tails' }).click();
    const form = page.getByRole('form', { name: 'Edit alert rule' });
    expect(await form.getByLabel('Name').inputValue()).toBe('Stutter on Tails');
    expect(await form.getByLabel('Metric').inputValue()).toBe('p99_frame_time');
    await form.getByLabel('A cell fails when worse than').selectOption('good');
    await form.getByLabel('Trigger at failing cells (%)').fill('40');
    await browser.screenshot('alerts-rule-edit');
    await form.getByRole('button', { name: 'Save rule' }).click();
    await page.getByRole('form', { name: 'New alert rule' }).waitFor();

    await page.reload();
    const row = page.getByRole('row', { name: /Stutter on Tails/ });
    await expect.poll(() => row.textContent()).toContain('worse than “good” in ≥ 40% of 25-unit cells');
    const stored = await request(`/v1/projects/${tenant.projectId}/alerts/${ruleId}`);
    expect(stored.body.data).toMatchObject({ thresholdLevel: 'good', failPercentage: 40, metric: 'p99_frame_time' });
  });

  it("shows the API's refusal of a rule, in its words", async () => {
    await page.getByRole('button', { name: 'Edit Stutter on Tails' }).click();
    const form = page.getByRole('form', { name: 'Edit alert rule' });
    // No profile at all: the API refuses (a rule needs at least one).
    await form.getByRole('checkbox', { name: 'Default' }).uncheck();
    await form.getByRole('button', { name: 'Save rule' }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toMatch(/The rule was not saved.*thresholdProfileIds/);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it("edits a profile's limit (refused first with the API's reason), kept after a reload", async () => {
    await page.goto(`${APP_ORIGIN}/projects/${tenant.projectId}/alerts?tab=profiles`);
    await page.getByRole('button', { name: 'Edit Default' }).click();
    const form = page.getByRole('form', { name: 'Edit threshold profile' });
    expect(await form.getByLabel('p99 frame time (ms) warn').inputValue()).toBe('50');

    // Good looser than warn: the API's 400 is shown as it words it, and nothing is stored.
    await form.getByLabel('p99 frame time (ms) good').fill('70');
    await form.getByLabel('p99 frame time (ms) warn').fill('60');
    await form.getByRole('button', { name: 'Save profile' }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toContain('each good limit must be at least as strict as its warn limit');
    await browser.screenshot('alerts-profile-refused');

    await form.getByLabel('p99 frame time (ms) good').fill('30');
    await form.getByLabel('Platform').fill('pc');
    await form.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('button', { name: 'New profile' }).waitFor();

    await page.reload();
    const row = page.getByRole('row', { name: /Default/ });
    await expect.poll(() => row.textContent()).toContain('30 / 60');
    await browser.screenshot('alerts-profiles');
    const [stored] = (await request(`/v1/projects/${tenant.projectId}/threshold-profiles`)).body.data;
    expect(stored).toMatchObject({ isDefault: true, p99FrameTimeMs: { good: 30, warn: 60 }, platform: 'pc' });
  });

  it('creates a profile from the default one, and deletes it', async () => {
    await page.getByRole('button', { name: 'New profile' }).click();
    const form = page.getByRole('form', { name: 'New threshold profile' });
    await form.getByLabel('Profile name').fill('Handheld');
    expect(await form.getByLabel('FPS good').inputValue()).toBe('60');
    await form.getByLabel('FPS good').fill('40');
    await form.getByLabel('FPS warn').fill('25');
    await form.getByLabel('Frames over 50 ms (%) warn').fill('3');
    await form.getByRole('button', { name: 'Create profile' }).click();
    const row = page.getByRole('row', { name: /Handheld/ });
    await expect.poll(() => row.textContent()).toContain('40 / 25');
    const listed = (await request(`/v1/projects/${tenant.projectId}/threshold-profiles`)).body.data;
    expect(listed.find((p: { name: string }) => p.name === 'Handheld')).toMatchObject({
      fps: { good: 40, warn: 25 },
      hitchShare50msPercent: { good: 0.5, warn: 3 },
      p99FrameTimeMs: { good: 30, warn: 60 },
    });

    await page.getByRole('button', { name: 'Delete Handheld' }).click();
    await page.getByRole('button', { name: 'Confirm delete' }).click();
    await expect.poll(() => page.getByRole('row', { name: /Handheld/ }).count()).toBe(0);
    const after = (await request(`/v1/projects/${tenant.projectId}/threshold-profiles`)).body.data;
    expect(after.map((p: { name: string }) => p.name)).toEqual(['Default']);
  });

  it('kept the pages free of script errors and CSP violations', () => {
    expect(browser.problems).toEqual([]);
  });
});
