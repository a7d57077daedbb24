import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bootstrapTenant } from '@framedeck/accounts';
import { loggingSection, notificationsSection, addressesSection } from '@framedeck/config';
import { DEFAULT_THRESHOLD_PROFILE } from '@framedeck/alerts';
import { reportedQuantile } from '@framedeck/analytics';
import { createLogger } from '@framedeck/logging';
import { generateWebhookSecret } from '@framedeck/notifications';
import {
  disableAlertRule,
  getAlertRule,
  getDefaultThresholdProfileId,
  insertAlertRule,
  insertNotificationChannel,
  insertThresholdProfile,
  listAlertHistory,
  updateAlertRule,
  type AlertRuleFields,
} from '@framedeck/postgres';
import { buildAlertEvaluator } from '../../services/alert-evaluator/src/alert-evaluator.js';
import { alertsSection } from '../../services/alert-evaluator/src/config.js';
import { connectTestStack } from '../support/stack.js';
import { TEST_ENV } from '../support/config.js';
import {
  createTestMap,
  frameEvents,
  insertEvents,
  retireProjectAlerts,
  startReceiver,
  testRuleFields,
  type TestMap,
} from './support/alerts-fixtures.js';

/**
 * The evaluator in-process on the real stack (Postgres, ClickHouse events read through the
 * analytics heatmap), with a clock the test moves, and a real webhook receiver on loopback.
 */
const stack = connectTestStack();
const env = {
  ...TEST_ENV,
  FRAMEDECK_NOTIFICATIONS_ALLOW_LOCAL_TARGETS: '1',
  FRAMEDECK_NOTIFICATIONS_RETRY_BASE_MS: '1000',
  FRAMEDECK_NOTIFICATIONS_TIMEOUT_MS: '2000',
};
let now = new Date();
const clock = { now: () => now };
const advance = (ms: number) => (now = new Date(now.getTime() + ms));
const alerts = buildAlertEvaluator({
  config: { alerts: alertsSection(env), notifications: notificationsSection(env), addresses: addressesSection(env) },
  pool: stack.pool,
  clickhouse: stack.clickhouse,
  logger: createLogger('alert-evaluator-test', loggingSection(env).level),
  clock,
});

let projectId: string;
let secret: string;
let webhookId: string;
let map: TestMap;
let emptyMap: TestMap;
let stutterMap: TestMap;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let status = 204;

beforeAll(async () => {
  projectId = (await bootstrapTenant(stack.pool, { plan: 'pro' })).projectId;
  secret = generateWebhookSecret();
  receiver = await startReceiver({
    secret: () => secret,
    nowSeconds: () => Math.floor(now.getTime() / 1000),
    respond: () => status,
  });
  webhookId = (
    await insertNotificationChannel(stack.pool, { projectId, name: 'hook', type: 'webhook', url: receiver.url, secret })
  ).id;
  map = await createTestMap(stack.pool, projectId, 'Dust');
  emptyMap = await createTestMap(stack.pool, projectId, 'Nobody plays here');
  stutterMap = await createTestMap(stack.pool, projectId, 'Stutter');
  // 4 × 2 grid: two cells at 20 fps (below warn 30), one at 45 (below good 60), five at 90.
  await insertEvents(
    stack.clickhouse,
    frameEvents(
      projectId,
      map,
      [
        [0, 0, 20],
        [1, 0, 20],
        [2, 0, 45],
        [3, 0, 90],
        [0, 1, 90],
        [1, 1, 90],
        [2, 1, 90],
        [3, 1, 90],
      ],
      now,
    ),
  );
  // Smooth on average everywhere (≥ 92 fps, ≤ 13 ms), with tails in two cells: (0, 0) has 2 %
  // of its frames at 62.5 ms (p99 62.5 ms), (1, 0) 10 % at 40 ms (p99 40 ms, hitch share 10 %).
  const frames = (cx: number, cy: number, fps: number, count: number) =>
    Array.from({ length: count }, () => [cx, cy, fps] as [number, number, number]);
  await insertEvents(
    stack.clickhouse,
    frameEvents(
      projectId,
      stutterMap,
      [
        ...frames(0, 0, 100, 98),
        ...frames(0, 0, 16, 2),
        ...frames(1, 0, 100, 90),
        ...frames(1, 0, 25, 10),
        ...[2, 3].flatMap((cx) => frames(cx, 0, 100, 10)),
        ...[0, 1, 2, 3].flatMap((cx) => frames(cx, 1, 100, 10)),
      ],
      now,
    ),
  );
});

afterAll(async () => {
  await retireProjectAlerts(stack.pool, projectId);
  await receiver.close();
  await stack.close();
});

beforeEach(() => {
  // Rules created in the test are due from Postgres' now(): keep the test clock ahead of it.
  now = new Date(Math.max(now.getTime(), Date.now() + 1_000));
  status = 204;
  receiver.received.length = 0;
});
// Each test's rules stop when it ends, so the next test's ticks see only its own.
afterEach(() => stack.pool.query(`UPDATE alert_rules SET is_active = false WHERE project_id = $1`, [projectId]));

/** 2 of 8 cells fail at warn: exactly the default failPercentage of 25 %. */
const rule = (overrides: Partial<AlertRuleFields> = {}) =>
  testRuleFields(stack.pool, projectId, map, { channelIds: [webhookId], ...overrides });

/** One evaluator tick and one deliverer tick, then the clock moves past the interval. */
async function tick(): Promise<void> {
  await alerts.evaluator.runOnce();
  await alerts.deliverer.runOnce();
  advance(61_000);
}

const historyOf = (ruleId: string) => listAlertHistory(stack.pool, { projectId, ruleId, limit: 100 });

describe('alert evaluation on real heatmap cells', () => {
  it('triggers, names the worst cells, links the heatmap and sends a signed webhook', async () => {
    const ruleId = await insertAlertRule(stack.pool, projectId, await rule());
    await tick();

    const [entry] = await historyOf(ruleId);
    expect(entry).toMatchObject({ status: 'triggered', failingCells: 2, totalCells: 8, threshold: 30 });
    expect(entry!.failingPercentage).toBe(25);
    const heatmapUrl = `${TEST_ENV.FRAMEDECK_APP_ORIGIN}/projects/${projectId}/heatmap?mapId=${map.mapId}&cellSize=25&days=1&metric=fps`;
    expect(entry!.dashboardUrl).toBe(heatmapUrl);
    expect(entry!.worstCells.slice(0, 3)).toEqual([
      { x: 12.5, y: 12.5, value: 20, eventCount: 1, failing: true, dashboardUrl: `${heatmapUrl}&focus=12.5%2C12.5` },
      { x: 37.5, y: 12.5, value: 20, eventCount: 1, failing: true, dashboardUrl: `${heatmapUrl}&focus=37.5%2C12.5` },
      { x: 62.5, y: 12.5, value: 45, eventCount: 1, failing: false, dashboardUrl: `${heatmapUrl}&focus=62.5%2C12.5` },
    ]);
    expect((await getAlertRule(stack.pool, projectId, ruleId))!.latestStatus).toBe('triggered');

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.signature).toEqual({ valid: true });
    expect(request!.headers['x-framedeck-notification-id']).toBe(request!.json.id);
    expect(request!.json).toMatchObject({
      type: 'alert.triggered',
      projectId,
      rule: { id: ruleId, metric: 'fps', thresholdLevel: 'warn', threshold: 30 },
      map: { id: map.id, mapId: map.mapId, name: 'Dust' },
      evaluation: { status: 'triggered', failingCells: 2, totalCells: 8 },
    });
    expect(request!.json.evaluation.worstCells[0]).toEqual(entry!.worstCells[0]);
    expect(request!.json.dashboardUrl).toBe(heatmapUrl);
    expect(entry!.notification).toMatchObject({ id: request!.json.id, kind: 'triggered' });
    const delivery = (await historyOf(ruleId))[0]!.notification!.deliveries[0]!;
    expect(delivery).toMatchObject({ channelId: webhookId, status: 'delivered', attempts: 1, lastStatusCode: 204 });
  });

  it('goes triggered → resolved → triggered, notifying each transition once', async () => {
    const ruleId = await insertAlertRule(stack.pool, projectId, await rule({ failPercentage: 25 }));
    await tick(); // triggered
    await tick(); // still triggered: no news
    await updateAlertRule(stack.pool, projectId, ruleId, { failPercentage: 50 });
    await tick(); // 25 % < 50 %: resolved
    await tick();
    await updateAlertRule(stack.pool, projectId, ruleId, { thresholdLevel: 'good', failPercentage: 30 });
    await tick(); // 3 of 8 below 60 fps = 37.5 %: triggered again

    const history = (await historyOf(ruleId)).reverse();
    expect(history.map((e) => [e.status, e.notificationOutcome])).toEqual([
      ['triggered', 'queued'],
      ['triggered', null],
      ['resolved', 'queued'],
      ['resolved', null],
      ['triggered', 'queued'],
    ]);
    expect(receiver.received.map((r) => r.json.type)).toEqual(['alert.triggered', 'alert.resolved', 'alert.triggered']);
    expect(receiver.received.every((r) => r.signature?.valid)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(3);
  });

  it('never notifies more often than cooldownMinutes, and sends a held-back transition after it', async () => {
    const ruleId = await insertAlertRule(stack.pool, projectId, await rule({ cooldownMinutes: 30 }));
    await tick(); // t0: triggered, notified
    await updateAlertRule(stack.pool, projectId, ruleId, { failPercentage: 50 });
    await tick(); // t0+1: resolved, inside the cooldown
    await updateAlertRule(stack.pool, projectId, ruleId, { failPercentage: 25 });
    await tick(); // t0+2: triggered again; receivers already know "triggered"
    await updateAlertRule(stack.pool, projectId, ruleId, { failPercentage: 50 });
    await tick(); // t0+3: resolved, still inside the cooldown
    expect(receiver.received.map((r) => r.json.type)).toEqual(['alert.triggered']);

    advance(27 * 60_000);
    await tick(); // t0+31: the cooldown is over and the rule is still resolved
    expect(receiver.received.map((r) => r.json.type)).toEqual(['alert.triggered', 'alert.resolved']);
    const outcomes = (await historyOf(ruleId)).reverse().map((e) => [e.status, e.notificationOutcome]);
    expect(outcomes).toEqual([
      ['triggered', 'queued'],
      ['resolved', 'cooldown'],
      ['triggered', null],
      ['resolved', 'cooldown'],
      ['resolved', 'queued'],
    ]);
  });

  it('never evaluates disabled rules', async () => {
    const inactive = await insertAlertRule(stack.pool, projectId, await rule({ isActive: false }));
    const deleted = await insertAlertRule(stack.pool, projectId, await rule());
    await disableAlertRule(stack.pool, projectId, deleted);
    await tick();
    await tick();
    expect(await historyOf(inactive)).toEqual([]);
    expect(await historyOf(deleted)).toEqual([]);
    expect((await getAlertRule(stack.pool, projectId, deleted))!).toMatchObject({
      isActive: false,
      latestStatus: null,
    });
    expect(receiver.received).toEqual([]);
  });

  it('resolves with totalCells 0 when the map has no data, and counts only cells with GPU samples', async () => {
    const quiet = await insertAlertRule(stack.pool, projectId, await rule({ mapId: emptyMap.id, failPercentage: 1 }));
    const gpu = await insertAlertRule(stack.pool, projectId, await rule({ metric: 'gpu_time', failPercentage: 1 }));
    await tick();
    expect((await historyOf(quiet))[0]).toMatchObject({ status: 'resolved', totalCells: 0, failingCells: 0 });
    // The fixture events carry no GPU time at all.
    expect((await historyOf(gpu))[0]).toMatchObject({ status: 'resolved', totalCells: 0 });
    expect(receiver.received).toEqual([]);
  });

  it('retries a failing receiver with backoff, records each attempt, gives up on a permanent error', async () => {
    status = 503;
    const ruleId = await insertAlertRule(stack.pool, projectId, await rule());
    await alerts.evaluator.runOnce();
    await alerts.deliverer.runOnce();
    const delivery = async () => (await historyOf(ruleId))[0]!.notification!.deliveries[0]!;
    const first = await delivery();
    expect(first).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 503 });
    expect(first.lastError).toMatch(/503/);
    // Backoff of attempt 1 with a 1 s base: between 0.5 and 1 s later, not at once.
    const wait = new Date(first.nextAttemptAt!).getTime() - now.getTime();
    expect(wait).toBeGreaterThanOrEqual(500);
    expect(wait).toBeLessThanOrEqual(1000);
    await alerts.deliverer.runOnce();
    expect((await delivery()).attempts).toBe(1); // not due yet

    advance(1_000);
    await alerts.deliverer.runOnce();
    expect(await delivery()).toMatchObject({ status: 'pending', attempts: 2 });
    status = 204;
    advance(2_000);
    await alerts.deliverer.runOnce();
    expect(await delivery()).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 204, lastError: null });
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(1);
    expect(receiver.received.map((r) => r.headers['x-framedeck-delivery-attempt'])).toEqual(['1', '2', '3']);

    // 410 Gone will not get better by retrying.
    status = 410;
    await updateAlertRule(stack.pool, projectId, ruleId, { failPercentage: 50 });
    advance(61_000);
    await tick();
    const gone = (await historyOf(ruleId))[0]!.notification!.deliveries[0]!;
    expect(gone).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 410, nextAttemptAt: null });
  });

  it('with several threshold profiles, triggers when any profile does and records the deciding one', async () => {
    // Against the grid (20, 20, 45 and five 90 fps cells) at warn: "lenient" fails no cell,
    // the default profile (warn 30) 2 of 8, "strict" (warn 50) 3 of 8.
    const profile = async (name: string, fpsWarn: number) => {
      const created = await insertThresholdProfile(stack.pool, projectId, {
        ...DEFAULT_THRESHOLD_PROFILE,
        name: `${name} ${now.getTime()}`,
        fpsGood: 60,
        fpsWarn,
        platform: null,
        resolution: null,
        buildConfig: null,
        gpu: null,
        storage: null,
      });
      if (!('id' in created)) throw new Error(`profile ${name}: ${created.conflict}`);
      return created.id;
    };
    const lenient = await profile('lenient', 15);
    const strict = await profile('strict', 50);
    const standard = (await getDefaultThresholdProfileId(stack.pool, projectId))!;

    // The first profile alone would resolve: only the second one triggers the rule.
    const second = await insertAlertRule(
      stack.pool,
      projectId,
      await rule({ thresholdProfileIds: [lenient, standard] }),
    );
    // Two profiles trigger: the worse outcome (the larger failing share) decides.
    const worst = await insertAlertRule(
      stack.pool,
      projectId,
      await rule({ thresholdProfileIds: [standard, strict, lenient] }),
    );
    const quiet = await insertAlertRule(stack.pool, projectId, await rule({ thresholdProfileIds: [lenient] }));
    await tick();

    expect((await historyOf(second))[0]).toMatchObject({
      status: 'triggered',
      thresholdProfileId: standard,
      threshold: 30,
      failingCells: 2,
      totalCells: 8,
    });
    expect((await historyOf(worst))[0]).toMatchObject({
      status: 'triggered',
      thresholdProfileId: strict,
      threshold: 50,
      failingCells: 3,
    });
    expect((await historyOf(quiet))[0]).toMatchObject({
      status: 'resolved',
      thresholdProfileId: lenient,
      failingCells: 0,
    });
    const sent = Object.fromEntries(receiver.received.map((r) => [r.json.rule.id, r.json]));
    expect(Object.keys(sent).sort()).toEqual([second, worst].sort());
    expect(sent[worst]).toMatchObject({ rule: { threshold: 50 }, evaluation: { failingCells: 3 } });

    // Adding a triggering profile to the quiet rule triggers it on its next evaluation.
    await updateAlertRule(stack.pool, projectId, quiet, { thresholdProfileIds: [lenient, strict] });
    await tick();
    expect((await historyOf(quiet)).map((e) => [e.status, e.thresholdProfileId])).toEqual([
      ['triggered', strict],
      ['resolved', lenient],
    ]);
  });

  it('sends a Slack-compatible text naming the worst cells with a link to the heatmap', async () => {
    const slack = await startReceiver();
    try {
      const channel = await insertNotificationChannel(stack.pool, {
        projectId,
        name: 'slack',
        type: 'slack',
        url: slack.url,
        secret: null,
      });
      await insertAlertRule(stack.pool, projectId, await rule({ name: 'Dust fps', channelIds: [channel.id] }));
      await tick();
      expect(slack.received).toHaveLength(1);
      const text: string = slack.received[0]!.json.text;
      expect(text).toContain('*Alert triggered*: Dust fps on Dust');
      expect(text).toContain('Worst cells: (12.5, 12.5) 20 fps');
      expect(text).toContain(`/projects/${projectId}/heatmap?mapId=${map.mapId}&cellSize=25&days=1&metric=fps|`);
    } finally {
      await slack.close();
    }
  });

  it('holds the tails to their limits: only the p99 and the 33 ms hitch rules fire where averages are fine', async () => {
    const onStutter = async (metric: AlertRuleFields['metric']) =>
      insertAlertRule(
        stack.pool,
        projectId,
        await rule({ name: metric, mapId: stutterMap.id, metric, failPercentage: 10 }),
      );
    const [fps, frameTime, p99, hitches33, hitches50] = [
      await onStutter('fps'),
      await onStutter('frame_time'),
      await onStutter('p99_frame_time'),
      await onStutter('hitch_share_33ms'),
      await onStutter('hitch_share_50ms'),
    ];
    await tick();

    // The averages: no cell worse than 30 fps or 33.3 ms.
    expect((await historyOf(fps))[0]).toMatchObject({ status: 'resolved', failingCells: 0, totalCells: 8 });
    expect((await historyOf(frameTime))[0]).toMatchObject({ status: 'resolved', failingCells: 0, totalCells: 8 });
    // p99 warn 50 ms: the cell with 2 % of frames at 62.5 ms fails (1 of 8 = 12.5 % ≥ 10 %).
    const heatmapUrl = (metric: string) =>
      `${TEST_ENV.FRAMEDECK_APP_ORIGIN}/projects/${projectId}/heatmap?mapId=${stutterMap.mapId}&cellSize=25&days=1&metric=${metric}`;
    const [tail] = await historyOf(p99);
    expect(tail).toMatchObject({ status: 'triggered', metric: 'p99_frame_time', threshold: 50, failingCells: 1 });
    expect(tail!.dashboardUrl).toBe(heatmapUrl('p99_frame_time'));
    expect(tail!.worstCells.slice(0, 2)).toEqual([
      {
        x: 12.5,
        y: 12.5,
        value: reportedQuantile(62.5),
        eventCount: 100,
        failing: true,
        dashboardUrl: `${heatmapUrl('p99_frame_time')}&focus=12.5%2C12.5`,
      },
      {
        x: 37.5,
        y: 12.5,
        value: reportedQuantile(40),
        eventCount: 100,
        failing: false,
        dashboardUrl: `${heatmapUrl('p99_frame_time')}&focus=37.5%2C12.5`,
      },
    ]);
    // Frames over 33.3 ms, warn 5 %: the cell with 10 % of them fails; the other has 2 %.
    const [hitch] = await historyOf(hitches33);
    expect(hitch).toMatchObject({ status: 'triggered', threshold: 5, failingCells: 1, totalCells: 8 });
    expect(hitch!.worstCells.slice(0, 2).map((c) => [c.x, c.y, c.value, c.failing])).toEqual([
      [37.5, 12.5, 10, true],
      [12.5, 12.5, 2, false],
    ]);
    // Frames over 50 ms, warn 2 %: 2 % passes (a value at the limit is acceptable).
    expect((await historyOf(hitches50))[0]).toMatchObject({ status: 'resolved', threshold: 2, failingCells: 0 });

    const sent = receiver.received.map((r) => [r.json.rule.metric, r.json.evaluation.worstCells[0].dashboardUrl]);
    expect(sent.sort()).toEqual([
      ['hitch_share_33ms', `${heatmapUrl('hitch_share_33ms')}&focus=37.5%2C12.5`],
      ['p99_frame_time', `${heatmapUrl('p99_frame_time')}&focus=12.5%2C12.5`],
    ]);
  });
});
