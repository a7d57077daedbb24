import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, createProjectWithKeys, type BootstrapResult } from '@framedeck/accounts';
import { linkEvaluatedCells } from '@framedeck/alerts';
import { insertAlertEvaluation, insertNotificationChannel } from '@framedeck/postgres';
import { startApi, type TestApi } from '../api/support/api-harness.js';
import { OpenApiValidator } from '../api/support/openapi-validator.js';
import { createTestMap, retireProjectAlerts, type TestMap } from './support/alerts-fixtures.js';

/** The alert endpoints through the real API (production URL policy: local targets refused). */
let api: TestApi;
let validator: OpenApiValidator;
let mine: BootstrapResult;
let other: BootstrapResult;
let map: TestMap;
let otherMap: TestMap;
let defaultProfileId: string;
let otherProfileId: string;
let otherChannelId: string;

const RULES = (t: BootstrapResult) => `/v1/projects/${t.projectId}/alerts`;
const write = (t: BootstrapResult) => t.keys.readWrite!;
const read = (t: BootstrapResult) => t.keys.read!;

beforeAll(async () => {
  api = await startApi();
  validator = new OpenApiValidator(api.api.openApiDocument);
  mine = await bootstrapTenant(api.pool, { plan: 'pro' });
  other = await bootstrapTenant(api.pool, { plan: 'pro' });
  map = await createTestMap(api.pool, mine.projectId, 'Dust');
  otherMap = await createTestMap(api.pool, other.projectId, 'Secret map');
  const profiles = await api.request(`/v1/projects/${mine.projectId}/threshold-profiles`, { key: read(mine) });
  defaultProfileId = profiles.body.data[0].id;
  const otherProfiles = await api.request(`/v1/projects/${other.projectId}/threshold-profiles`, { key: read(other) });
  otherProfileId = otherProfiles.body.data[0].id;
  otherChannelId = (
    await insertNotificationChannel(api.pool, {
      projectId: other.projectId,
      name: 'theirs',
      type: 'slack',
      url: 'https://hooks.example.com/services/x',
      secret: null,
    })
  ).id;
});

afterAll(async () => {
  await retireProjectAlerts(api.pool, mine.projectId);
  await retireProjectAlerts(api.pool, other.projectId);
  await api.close();
});

describe('threshold profiles', () => {
  it('every project has the documented default profile, new projects included', async () => {
    const res = await api.request(`/v1/projects/${mine.projectId}/threshold-profiles`, { key: read(mine) });
    validator.expectDocumented(res, 'GET', '/v1/projects/{id}/threshold-profiles');
    expect(res.body.data).toEqual([
      {
        id: expect.any(String),
        name: 'Default',
        isDefault: true,
        fps: { good: 60, warn: 30 },
        frameTimeMs: { good: 16.7, warn: 33.3 },
        gpuTimeMs: { good: 14, warn: 28 },
        memoryMb: { good: 4096, warn: 6144 },
        p99FrameTimeMs: { good: 33.3, warn: 50 },
        hitchShare33msPercent: { good: 1, warn: 5 },
        hitchShare50msPercent: { good: 0.5, warn: 2 },
        platform: null,
        resolution: null,
        buildConfig: null,
        gpu: null,
        storage: null,
        createdAt: expect.any(String),
      },
    ]);
    const added = await createProjectWithKeys(api.pool, { tenantId: mine.tenantId, name: 'Second game' });
    const second = await api.request(`/v1/projects/${added.projectId}/threshold-profiles`, { key: added.keys.full! });
    expect(second.body.data.map((p: { name: string }) => p.name)).toEqual(['Default']);
    expect(second.body.data[0].id).not.toBe(res.body.data[0].id);
  });

  it('creates and patches the tail limits; a share over 100 % or a good limit past warn is a 400', async () => {
    const PROFILES = `/v1/projects/${mine.projectId}/threshold-profiles`;
    const created = await api.request(PROFILES, {
      method: 'POST',
      key: write(mine),
      json: { name: 'Competitive', p99FrameTimeMs: { good: 20, warn: 25 }, hitchShare33msPercent: { warn: 2 } },
    });
    validator.expectDocumented(created, 'POST', '/v1/projects/{id}/threshold-profiles');
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({
      p99FrameTimeMs: { good: 20, warn: 25 },
      hitchShare33msPercent: { good: 1, warn: 2 }, // the default's good limit where none was sent
      hitchShare50msPercent: { good: 0.5, warn: 2 },
    });
    const one = `${PROFILES}/${created.body.data.id}`;
    const patched = await api.request(one, {
      method: 'PATCH',
      key: write(mine),
      json: { hitchShare50msPercent: { good: 0.1, warn: 0.4 } },
    });
    validator.expectDocumented(patched, 'PATCH', '/v1/projects/{id}/threshold-profiles/{profileId}');
    expect(patched.body.data).toMatchObject({
      p99FrameTimeMs: { good: 20, warn: 25 },
      hitchShare50msPercent: { good: 0.1, warn: 0.4 },
    });
    const refused = async (json: object) => {
      const res = await api.request(one, { method: 'PATCH', key: write(mine), json });
      validator.expectProblem(res, 400);
      return res.body.detail as string;
    };
    expect(await refused({ hitchShare33msPercent: { warn: 101 } })).toMatch(/hitchShare33msPercent\.warn/);
    expect(await refused({ p99FrameTimeMs: { good: 30 } })).toMatch(/good limit must be at least as strict/);
    // Nothing was changed by the refused requests.
    const listed = await api.request(PROFILES, { key: read(mine) });
    expect(listed.body.data.find((p: { id: string }) => p.id === created.body.data.id)).toMatchObject({
      p99FrameTimeMs: { good: 20, warn: 25 },
      hitchShare33msPercent: { good: 1, warn: 2 },
    });
  });
});

describe('notification channels', () => {
  const CHANNELS = (t: BootstrapResult) => `/v1/projects/${t.projectId}/notification-channels`;

  it('creates a webhook with a generated secret shown once, and a Slack channel whose URL is never listed', async () => {
    const hook = await api.request(CHANNELS(mine), {
      method: 'POST',
      key: write(mine),
      json: { type: 'webhook', name: 'Ops', url: 'https://ops.example.com/hooks/framedeck?token=abc' },
    });
    validator.expectDocumented(hook, 'POST', '/v1/projects/{id}/notification-channels');
    expect(hook.status).toBe(201);
    expect(hook.body.data.secret).toMatch(/^whsec_/);
    const slack = await api.request(CHANNELS(mine), {
      method: 'POST',
      key: write(mine),
      json: { type: 'slack', name: 'QA', url: 'https://hooks.slack.com/services/T000/B000/XXXXSECRET' },
    });
    expect(slack.status).toBe(201);
    expect(slack.body.data.secret).toBeNull();

    const list = await api.request(CHANNELS(mine), { key: read(mine) });
    validator.expectDocumented(list, 'GET', '/v1/projects/{id}/notification-channels');
    expect(list.text).not.toContain(hook.body.data.secret);
    expect(list.text).not.toContain('XXXXSECRET');
    expect(list.text).not.toContain('token=abc');
    expect(list.body.data.map((c: { target: string }) => c.target)).toEqual([
      'https://ops.example.com/hooks/framedeck',
      'https://hooks.slack.com/…',
    ]);
  });

  it.each([
    ['http://ops.example.com/hook', /https/],
    ['https://127.0.0.1/hook', /private/],
    ['https://10.0.0.7/hook', /private/],
    ['https://[::ffff:169.254.169.254]/latest/meta-data', /private/],
    ['https://localhost:8080/hook', /public host/],
    ['https://user:pw@ops.example.com/hook', /credentials/],
  ])('refuses %s (SSRF) with 400', async (url, reason) => {
    const res = await api.request(CHANNELS(mine), {
      method: 'POST',
      key: write(mine),
      json: { type: 'webhook', name: 'evil', url },
    });
    validator.expectProblem(res, 400);
    expect(res.body.detail).toMatch(reason);
  });

  it('deletes only its own project channels', async () => {
    const created = await api.request(CHANNELS(mine), {
      method: 'POST',
      key: write(mine),
      json: { type: 'slack', name: 'temp', url: 'https://chat.example.com/hooks/1' },
    });
    const id = created.body.data.channel.id;
    const theirs = await api.request(`${CHANNELS(mine)}/${otherChannelId}`, { method: 'DELETE', key: write(mine) });
    validator.expectProblem(theirs, 404);
    const ok = await api.request(`${CHANNELS(mine)}/${id}`, { method: 'DELETE', key: write(mine) });
    expect(ok.body.data).toEqual({ id });
    validator.expectProblem(await api.request(`${CHANNELS(mine)}/${id}`, { method: 'DELETE', key: write(mine) }), 404);
  });

  it('needs resources:write to create', async () => {
    const res = await api.request(CHANNELS(mine), {
      method: 'POST',
      key: read(mine),
      json: { type: 'slack', name: 'x', url: 'https://chat.example.com/hooks/1' },
    });
    validator.expectProblem(res, 403);
  });
});

describe('alert rules', () => {
  const LISTED_FIELDS = [
    'id',
    'name',
    'mapId',
    'mapName',
    'thresholdProfileId',
    'thresholdProfileName',
    'thresholdProfileIds',
    'metric',
    'thresholdLevel',
    'failPercentage',
    'evaluationDays',
    'cellSize',
    'cooldownMinutes',
    'isActive',
    'createdAt',
    'latestStatus',
    'channelIds',
  ].sort();

  it('creates a rule with defaults and lists it in exactly the listed shape', async () => {
    const created = await api.request(RULES(mine), {
      method: 'POST',
      key: write(mine),
      json: { name: 'Dust fps', mapId: map.id, metric: 'fps' },
    });
    validator.expectDocumented(created, 'POST', '/v1/projects/{id}/alerts');
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      name: 'Dust fps',
      mapId: map.id,
      mapName: 'Dust',
      thresholdProfileId: defaultProfileId,
      thresholdProfileName: 'Default',
      thresholdProfileIds: [defaultProfileId],
      metric: 'fps',
      thresholdLevel: 'warn',
      failPercentage: 25,
      evaluationDays: 7,
      cellSize: 25,
      cooldownMinutes: 60,
      isActive: true,
      createdAt: expect.any(String),
      latestStatus: null,
      channelIds: [],
    });
    const list = await api.request(RULES(mine), { key: read(mine) });
    validator.expectDocumented(list, 'GET', '/v1/projects/{id}/alerts');
    const listed = list.body.data.find((r: { id: string }) => r.id === created.body.data.id);
    expect(Object.keys(listed).sort()).toEqual(LISTED_FIELDS);
    expect(listed).toEqual(created.body.data);
  });

  it('takes every field, gets one, patches part of it, and DELETE only disables', async () => {
    const channel = await insertNotificationChannel(api.pool, {
      projectId: mine.projectId,
      name: 'c',
      type: 'slack',
      url: 'https://chat.example.com/hooks/2',
      secret: null,
    });
    const body = {
      name: 'Memory on Dust',
      mapId: map.id,
      thresholdProfileId: defaultProfileId,
      metric: 'memory',
      thresholdLevel: 'good',
      failPercentage: 12.5,
      evaluationDays: 30,
      cellSize: 50,
      cooldownMinutes: 0,
      channelIds: [channel.id],
      isActive: true,
    };
    const created = await api.request(RULES(mine), { method: 'POST', key: write(mine), json: body });
    expect(created.body.data).toMatchObject(body);
    const url = `${RULES(mine)}/${created.body.data.id}`;

    const one = await api.request(url, { key: read(mine) });
    validator.expectDocumented(one, 'GET', '/v1/projects/{id}/alerts/{alertId}');
    expect(one.body.data).toEqual(created.body.data);

    const patched = await api.request(url, {
      method: 'PATCH',
      key: write(mine),
      json: { cellSize: 10, channelIds: [] },
    });
    validator.expectDocumented(patched, 'PATCH', '/v1/projects/{id}/alerts/{alertId}');
    expect(patched.body.data).toEqual({ ...created.body.data, cellSize: 10, channelIds: [] });

    const disabled = await api.request(url, { method: 'DELETE', key: write(mine) });
    validator.expectDocumented(disabled, 'DELETE', '/v1/projects/{id}/alerts/{alertId}');
    expect(disabled.body.data.isActive).toBe(false);
    const list = await api.request(RULES(mine), { key: read(mine) });
    expect(list.body.data.find((r: { id: string }) => r.id === created.body.data.id)).toMatchObject({
      isActive: false,
      name: 'Memory on Dust',
    });
    const enabled = await api.request(url, { method: 'PATCH', key: write(mine), json: { isActive: true } });
    expect(enabled.body.data.isActive).toBe(true);
  });

  it('watches the tails: p99 frame time and the 33.3 / 50 ms hitch shares', async () => {
    const created = await api.request(RULES(mine), {
      method: 'POST',
      key: write(mine),
      json: { name: 'Stutter', mapId: map.id, metric: 'p99_frame_time', isActive: false },
    });
    validator.expectDocumented(created, 'POST', '/v1/projects/{id}/alerts');
    expect(created.body.data).toMatchObject({ metric: 'p99_frame_time' });
    for (const metric of ['hitch_share_33ms', 'hitch_share_50ms']) {
      const patched = await api.request(`${RULES(mine)}/${created.body.data.id}`, {
        method: 'PATCH',
        key: write(mine),
        json: { metric },
      });
      expect(patched.body.data).toMatchObject({ metric });
    }
  });

  it.each([
    ['an unknown metric', { metric: 'latency' }],
    ['a cell size not in 5, 10, 25, 50', { cellSize: 7 }],
    ['failPercentage 0', { failPercentage: 0 }],
    ['failPercentage 101', { failPercentage: 101 }],
    ['evaluationDays 3', { evaluationDays: 3 }],
    ['a negative cooldown', { cooldownMinutes: -1 }],
    ['a cooldown over a week', { cooldownMinutes: 10_081 }],
    ['an empty name', { name: '  ' }],
    ['a thresholdLevel other than warn/good', { thresholdLevel: 'bad' }],
    ['a mapId that is not a UUID', { mapId: map?.mapId ?? 'dust' }],
    ['an unknown field', { threshold_level: 'warn' }],
    ['a string number', { failPercentage: '50' }],
  ])('refuses %s with 400', async (_what, change) => {
    const res = await api.request(RULES(mine), {
      method: 'POST',
      key: write(mine),
      json: { name: 'r', mapId: map.id, metric: 'fps', ...change },
    });
    validator.expectProblem(res, 400);
  });

  it("refuses another project's map, profile or channel with the same 400 as a missing one", async () => {
    const attempt = (change: object) =>
      api.request(RULES(mine), {
        method: 'POST',
        key: write(mine),
        json: { name: 'r', mapId: map.id, metric: 'fps', ...change },
      });
    const foreignMap = await attempt({ mapId: otherMap.id });
    validator.expectProblem(foreignMap, 400);
    expect(foreignMap.body.detail).toBe('mapId: not found in this project.');
    const missingMap = await attempt({ mapId: '00000000-0000-4000-8000-000000000000' });
    expect(missingMap.body.detail).toBe(foreignMap.body.detail);
    expect(foreignMap.text).not.toContain('Secret map');
    expect((await attempt({ thresholdProfileId: otherProfileId })).body.detail).toBe(
      'thresholdProfileIds: not found in this project.',
    );
    expect((await attempt({ channelIds: [otherChannelId] })).body.detail).toBe(
      'channelIds: not found in this project.',
    );

    const created = await attempt({});
    const patch = await api.request(`${RULES(mine)}/${created.body.data.id}`, {
      method: 'PATCH',
      key: write(mine),
      json: { mapId: otherMap.id },
    });
    validator.expectProblem(patch, 400);
  });

  it("never shows or changes another project's rule", async () => {
    const theirs = await api.request(RULES(other), {
      method: 'POST',
      key: write(other),
      json: { name: 'theirs', mapId: otherMap.id, metric: 'fps' },
    });
    const url = `${RULES(mine)}/${theirs.body.data.id}`;
    validator.expectProblem(await api.request(url, { key: read(mine) }), 404);
    validator.expectProblem(await api.request(url, { method: 'PATCH', key: write(mine), json: { name: 'x' } }), 404);
    validator.expectProblem(await api.request(url, { method: 'DELETE', key: write(mine) }), 404);
    // Their project through my key: the project itself is not found.
    validator.expectProblem(await api.request(RULES(other), { key: read(mine) }), 404);
    const still = await api.request(`${RULES(other)}/${theirs.body.data.id}`, { key: read(other) });
    expect(still.body.data).toMatchObject({ name: 'theirs', isActive: true });
  });

  it('needs resources:write to change rules; analytics:read reads them', async () => {
    const res = await api.request(RULES(mine), {
      method: 'POST',
      key: read(mine),
      json: { name: 'r', mapId: map.id, metric: 'fps' },
    });
    validator.expectProblem(res, 403);
    expect((await api.request(RULES(mine), { key: read(mine) })).status).toBe(200);
  });

  it('a malformed rule id is a 400, and /alerts/history is not taken for a rule id', async () => {
    validator.expectProblem(await api.request(`${RULES(mine)}/not-a-uuid`, { key: read(mine) }), 400);
    const history = await api.request(`${RULES(mine)}/history`, { key: read(mine) });
    expect(history.status, history.text).toBe(200);
  });
});

describe('alert history', () => {
  let ruleA: string;
  let ruleB: string;
  const base = Date.parse('2026-01-10T00:00:00Z');
  const at = (minute: number) => new Date(base + minute * 60_000);

  beforeAll(async () => {
    const create = async (name: string) =>
      (
        await api.request(RULES(mine), {
          method: 'POST',
          key: write(mine),
          json: { name, mapId: map.id, metric: 'fps', isActive: false },
        })
      ).body.data.id as string;
    ruleA = await create('A');
    ruleB = await create('B');
    // Six evaluations of A (alternating status), two of B.
    for (const [ruleId, minute, status] of [
      [ruleA, 0, 'triggered'],
      [ruleA, 1, 'resolved'],
      [ruleA, 2, 'triggered'],
      [ruleA, 3, 'resolved'],
      [ruleA, 4, 'triggered'],
      [ruleA, 5, 'resolved'],
      [ruleB, 2, 'triggered'],
      [ruleB, 6, 'triggered'],
    ] as const) {
      await insertAlertEvaluation(api.pool, {
        projectId: mine.projectId,
        ruleId,
        evaluatedAt: at(minute),
        status,
        metric: 'fps',
        thresholdLevel: 'warn',
        threshold: 30,
        thresholdProfileId: null,
        failPercentage: 25,
        failingCells: status === 'triggered' ? 3 : 0,
        totalCells: 8,
        failingPercentage: status === 'triggered' ? 37.5 : 0,
        worstCells: [{ x: 12.5, y: 12.5, value: 20, eventCount: 4, failing: true }],
        // As recorded before migration 009: no links.
        dashboardUrl: null,
        notificationOutcome: null,
      });
    }
  });

  const history = (query: string) =>
    api.request(`/v1/projects/${mine.projectId}/alerts/history?${query}`, { key: read(mine) });

  it('filters by rule, status and time range, newest first', async () => {
    const res = await history(`alertId=${ruleA}&status=triggered`);
    validator.expectDocumented(res, 'GET', '/v1/projects/{id}/alerts/history');
    expect(res.body.data.items.map((e: { evaluatedAt: string }) => e.evaluatedAt)).toEqual([
      at(4).toISOString(),
      at(2).toISOString(),
      at(0).toISOString(),
    ]);
    expect(res.body.data.items[0]).toMatchObject({ alertId: ruleA, alertName: 'A', failingCells: 3, totalCells: 8 });
    const ranged = await history(`from=${at(2).toISOString()}&to=${at(5).toISOString()}`);
    // A at minutes 2, 3, 4 and B at 2 (the tie at minute 2 is ordered by id).
    expect(ranged.body.data.items.map((e: { alertName: string }) => e.alertName).sort()).toEqual(['A', 'A', 'A', 'B']);
    expect(ranged.body.data.items[0].evaluatedAt).toBe(at(4).toISOString());
  });

  it('pages with a cursor until nextCursor is null, without gaps or repeats', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await history(`limit=3${cursor ? `&cursor=${cursor}` : ''}&from=${at(0).toISOString()}`);
      expect(res.status, res.text).toBe(200);
      seen.push(...res.body.data.items.map((e: { id: string }) => e.id));
      cursor = res.body.data.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(8);
    expect(new Set(seen).size).toBe(8);
  });

  it('refuses a forged cursor and bad filters with 400', async () => {
    validator.expectProblem(await history('cursor=bm90LWEtY3Vyc29y'), 400);
    validator.expectProblem(await history('status=maybe'), 400);
    validator.expectProblem(await history('limit=0'), 400);
    validator.expectProblem(await history('from=yesterday'), 400);
  });

  it('names the worst cells with links to the heatmap at each of them, and the evaluated heatmap', async () => {
    const place = {
      projectId: mine.projectId,
      mapId: map.mapId,
      cellSize: 25,
      days: 7,
      metric: 'hitch_share_33ms',
    } as const;
    const linked = linkEvaluatedCells('https://framedeck.example.com', place, [
      { x: 37.5, y: 12.5, value: 10, eventCount: 100, failing: true },
      { x: 12.5, y: 12.5, value: 2, eventCount: 100, failing: false },
    ]);
    await insertAlertEvaluation(api.pool, {
      projectId: mine.projectId,
      ruleId: ruleB,
      evaluatedAt: at(7),
      status: 'triggered',
      metric: 'hitch_share_33ms',
      thresholdLevel: 'warn',
      threshold: 5,
      thresholdProfileId: defaultProfileId,
      failPercentage: 10,
      failingCells: 1,
      totalCells: 8,
      failingPercentage: 12.5,
      ...linked,
      notificationOutcome: null,
    });
    const res = await history(`alertId=${ruleB}&limit=2`);
    validator.expectDocumented(res, 'GET', '/v1/projects/{id}/alerts/history');
    const [latest, older] = res.body.data.items;
    const heatmap = `https://framedeck.example.com/projects/${mine.projectId}/heatmap?mapId=${map.mapId}&cellSize=25&days=7`;
    expect(latest).toMatchObject({
      metric: 'hitch_share_33ms',
      threshold: 5,
      dashboardUrl: `${heatmap}&metric=hitch_share_33ms`,
      worstCells: [
        { x: 37.5, y: 12.5, value: 10, eventCount: 100, failing: true },
        { x: 12.5, y: 12.5, value: 2, eventCount: 100, failing: false },
      ],
    });
    expect(latest.worstCells.map((c: { dashboardUrl: string }) => c.dashboardUrl)).toEqual([
      `${heatmap}&metric=hitch_share_33ms&focus=37.5%2C12.5`,
      `${heatmap}&metric=hitch_share_33ms&focus=12.5%2C12.5`,
    ]);
    // Recorded before history carried links.
    expect(older).toMatchObject({ dashboardUrl: null, worstCells: [{ x: 12.5, y: 12.5, dashboardUrl: null }] });
  });

  it("shows nothing of another project's history", async () => {
    const res = await api.request(`/v1/projects/${other.projectId}/alerts/history?alertId=${ruleA}`, {
      key: read(other),
    });
    expect(res.body.data.items).toEqual([]);
  });
});
