import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { startApi, type TestApi } from '../api/support/api-harness.js';
import { OpenApiValidator } from '../api/support/openapi-validator.js';
import { uploadMap } from './api-helpers.js';
import { insertEvents, type FixtureEvent } from './event-fixtures.js';

let api: TestApi;
let tenant: BootstrapResult;
let validator: OpenApiValidator;
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

beforeAll(async () => {
  api = await startApi();
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' });
  validator = new OpenApiValidator(api.api.openApiDocument);
  expect((await uploadMap(api, { key: tenant.keys.readWrite!, projectId: tenant.projectId })).status).toBe(201);
  const e = (at: Date, x: number, extra: Partial<FixtureEvent> = {}): FixtureEvent => ({
    projectId: tenant.projectId,
    mapId: 'arena',
    at,
    position: [x, 10],
    fps: 60,
    frameTimeMs: 16,
    playerId: 'p1',
    eventName: 'frame',
    ...extra,
  });
  await insertEvents(api.clickhouse, [
    e(ago(2), -99), // cell 0 with the default cell size 25 (centre -87.5); cell 0 of size 5 too
    e(ago(2), -94), // cell 0 of size 25, cell 1 of size 5
    e(ago(10), 0), // outside the default 7 days
    e(ago(20), 0, { eventName: 'old' }), // inside the default 30 days of insights
    e(ago(40), 0, { eventName: 'older' }), // outside them
    ...Array.from({ length: 12 }, (_, i) => e(ago(0.5), 50, { eventName: `event-${i}` })),
  ]);
});
afterAll(() => api.close());

const get = (path: string) => api.request(path, { key: tenant.keys.read! });
const heatmap = (qs: string) => get(`/v1/projects/${tenant.projectId}/heatmap?${qs}`);
const insights = (qs: string) => get(`/v1/projects/${tenant.projectId}/insights?${qs}`);

describe('heatmap parameters (spec table)', () => {
  it('defaults: cellSize 25, days 7, Performance mode', async () => {
    const res = await heatmap('mapId=arena');
    expect(res.status, res.text).toBe(200);
    validator.expectDocumented(res, 'GET', '/v1/projects/{id}/heatmap');
    expect(res.body.data.map((c: { x: number; event_count: number }) => [c.x, c.event_count])).toEqual([
      [-87.5, 2],
      [62.5, 12],
    ]);
  });

  it.each([
    ['cellSize=5', [-97.5, -92.5, 52.5]],
    ['cellSize=10', [-95, 55]],
    ['cellSize=50', [-75, 75]],
    ['days=14', [-87.5, 12.5, 62.5]],
    ['days=1', [62.5]],
    ['days=30', [-87.5, 12.5, 62.5]],
  ])('accepts %s', async (qs, xs) => {
    const res = await heatmap(`mapId=arena&${qs}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((c: { x: number }) => c.x)).toEqual(xs);
  });

  it('buildId is accepted (an unknown build has no cells)', async () => {
    const res = await heatmap('mapId=arena&buildId=no-such-build');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('eventName switches to Events mode', async () => {
    const res = await heatmap('mapId=arena&eventName=event-3');
    expect(res.body.data).toEqual([expect.objectContaining({ x: 62.5, event_count: 1, weight: 1 })]);
  });

  it.each([
    ['no mapId', ''],
    ['empty mapId', 'mapId='],
    ['mapId of 256 characters', `mapId=${'m'.repeat(256)}`],
    ['cellSize not allowed', 'mapId=arena&cellSize=20'],
    ['cellSize 0', 'mapId=arena&cellSize=0'],
    ['cellSize as a decimal', 'mapId=arena&cellSize=25.0'],
    ['cellSize not a number', 'mapId=arena&cellSize=big'],
    ['cellSize repeated', 'mapId=arena&cellSize=5&cellSize=10'],
    ['days not allowed', 'mapId=arena&days=2'],
    ['days negative', 'mapId=arena&days=-7'],
    ['empty eventName', 'mapId=arena&eventName='],
    ['empty buildId', 'mapId=arena&buildId='],
    ['buildId of 129 characters', `mapId=arena&buildId=${'b'.repeat(129)}`],
    ['unknown parameter', 'mapId=arena&zoneId=1'],
  ])('400 for %s', async (_what, qs) => {
    validator.expectProblem(await heatmap(qs), 400);
  });

  it('a mapId of 255 characters is valid, and without a map it is a 404', async () => {
    const res = await heatmap(`mapId=${'m'.repeat(255)}`);
    validator.expectProblem(res, 404);
    expect(res.body.detail).toBe('Map not found.');
  });
});

describe('insights parameters (spec table)', () => {
  it('defaults: days 30, limit 10', async () => {
    const res = await insights('metric=count&groupBy=event_name');
    expect(res.status, res.text).toBe(200);
    validator.expectDocumented(res, 'GET', '/v1/projects/{id}/insights');
    expect(res.body.data.rows).toHaveLength(10);
    expect(res.body.data.distinctGroups).toBe(14); // frame, old, event-0..11; "older" is 40 days old
    expect(res.body.data.total).toBe(16);
  });

  it.each([
    ['days=7', 14],
    ['days=14', 15],
    ['days=90', 17],
  ])('%s', async (qs, total) => {
    const res = await insights(`metric=count&groupBy=day&${qs}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.total).toBe(total);
  });

  it.each([
    ['limit=20', 14],
    ['limit=50', 14],
  ])('%s', async (qs, rows) => {
    expect((await insights(`metric=count&groupBy=event_name&${qs}`)).body.data.rows).toHaveLength(rows);
  });

  it.each(['day', 'week', 'month', 'event_name', 'map_id', 'platform', 'build_id'])('groupBy=%s', async (groupBy) => {
    for (const metric of ['count', 'unique_players']) {
      const res = await insights(`metric=${metric}&groupBy=${groupBy}`);
      expect(res.status, res.text).toBe(200);
      validator.expectDocumented(res, 'GET', '/v1/projects/{id}/insights');
    }
  });

  it('eventName filters', async () => {
    expect((await insights('metric=count&groupBy=day&eventName=old')).body.data.total).toBe(1);
  });

  it.each([
    ['no metric', 'groupBy=day'],
    ['no groupBy', 'metric=count'],
    ['unknown metric', 'metric=sum&groupBy=day'],
    ['unknown groupBy', 'metric=count&groupBy=hour'],
    ['days not allowed', 'metric=count&groupBy=day&days=60'],
    ['limit not allowed', 'metric=count&groupBy=day&limit=15'],
    ['limit 0', 'metric=count&groupBy=day&limit=0'],
    ['empty eventName', 'metric=count&groupBy=day&eventName='],
    ['unknown parameter', 'metric=count&groupBy=day&sort=asc'],
  ])('400 for %s', async (_what, qs) => {
    validator.expectProblem(await insights(qs), 400);
  });
});

describe('parameters of the other analytics endpoints', () => {
  const id = () => tenant.projectId;
  it.each([
    () => `/v1/projects/${id()}/dashboard?days=3`,
    () => `/v1/projects/${id()}/builds?limit=0`,
    () => `/v1/projects/${id()}/builds/compare?base=a`,
    () => `/v1/projects/${id()}/builds/compare?base=a&target=a`,
    () => `/v1/projects/${id()}/builds/compare?base=a&target=b&threshold=90`,
    () => `/v1/projects/${id()}/retention?period=month`,
    () => `/v1/projects/${id()}/retention?period=week&periods=13`,
    () => `/v1/projects/${id()}/retention?periods=31`,
    () => `/v1/projects/${id()}/funnels?steps=a`,
    () => `/v1/projects/${id()}/funnels?steps=a&steps=b&windowSeconds=0`,
    () => `/v1/projects/${id()}/funnels?steps=a&steps=b&by=device`,
    () => `/v1/projects/${id()}/funnels?${Array.from({ length: 11 }, (_, i) => `steps=s${i}`).join('&')}`,
  ])('400: %s', async (path) => {
    validator.expectProblem(await get(path()), 400);
  });

  it.each([
    ['/dashboard', '/v1/projects/{id}/dashboard'],
    ['/builds', '/v1/projects/{id}/builds'],
    ['/builds/compare?base=a&target=b', '/v1/projects/{id}/builds/compare'],
    ['/retention', '/v1/projects/{id}/retention'],
    ['/retention?period=week&periods=12&days=90', '/v1/projects/{id}/retention'],
    ['/funnels?steps=frame&steps=old&by=session&windowSeconds=3600', '/v1/projects/{id}/funnels'],
  ])('200 and documented: %s', async (suffix, template) => {
    const res = await get(`/v1/projects/${tenant.projectId}${suffix}`);
    expect(res.status, res.text).toBe(200);
    validator.expectDocumented(res, 'GET', template);
  });
});
