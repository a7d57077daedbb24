import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { reportedQuantile } from '@framedeck/analytics';
import { uploadMap } from '../analytics/api-helpers.js';
import { insertEvents, type FixtureEvent } from '../analytics/event-fixtures.js';
import { startApi, type TestApi } from './support/api-harness.js';
import { OpenApiValidator } from './support/openapi-validator.js';

// The platform, build and source filters (and the heatmap's z slice) over HTTP: each analytics
// route takes them with the same names and limits, applies them, and answers 400 for a bad value.
let api: TestApi;
let tenant: BootstrapResult;
let validator: OpenApiValidator;
const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000);

beforeAll(async () => {
  api = await startApi();
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' });
  validator = new OpenApiValidator(api.api.openApiDocument);
  expect((await uploadMap(api, { key: tenant.keys.readWrite!, projectId: tenant.projectId })).status).toBe(201);
  const e = (x: number, extra: Partial<FixtureEvent>): FixtureEvent => ({
    projectId: tenant.projectId,
    mapId: 'arena',
    at: ago(2),
    position: [x, 10, 0],
    fps: 60,
    frameTimeMs: 16,
    ...extra,
  });
  await insertEvents(api.clickhouse, [
    // A PC player on build 1.0, upstairs (z 10) in the first cell of 25 units: start, then finish.
    e(-99, { playerId: 'pc-player', platform: 'pc', buildId: '1.0', eventName: 'start', position: [-99, 10, 10] }),
    e(-99, { playerId: 'pc-player', platform: 'pc', buildId: '1.0', eventName: 'finish', at: ago(1.9) }),
    // An automated Switch run on build 1.1 in the cell around x 62.5: start only.
    e(60, { playerId: 'bot', platform: 'switch', buildId: '1.1', source: 'automated', eventName: 'start' }),
  ]);
});
afterAll(() => api.close());

const get = (path: string) => api.request(`/v1/projects/${tenant.projectId}${path}`, { key: tenant.keys.read! });

const ROUTES = [
  ['/heatmap?mapId=arena', '/v1/projects/{id}/heatmap'],
  ['/heatmap/worst-areas?mapId=arena', '/v1/projects/{id}/heatmap/worst-areas'],
  ['/insights?metric=count&groupBy=platform', '/v1/projects/{id}/insights'],
  ['/retention?', '/v1/projects/{id}/retention'],
  ['/funnels?steps=start,finish', '/v1/projects/{id}/funnels'],
  ['/builds?', '/v1/projects/{id}/builds'],
  ['/builds/compare?base=1.0&target=1.1', '/v1/projects/{id}/builds/compare'],
] as const;
/** builds list and compare name their build otherwise (buildId, base/target): they take platform and source. */
const takesBuildId = (path: string) => !path.startsWith('/builds');
const sep = (path: string) => (path.endsWith('?') ? '' : '&');

describe('GET …/heatmap/worst-areas', () => {
  const worst = (qs: string) => get(`/heatmap/worst-areas?mapId=arena&${qs}`);

  it('defaults: at least 30 frame samples (none here), documented', async () => {
    const res = await worst('');
    expect(res.status, res.text).toBe(200);
    validator.expectDocumented(res, 'GET', '/v1/projects/{id}/heatmap/worst-areas');
    expect(res.body.data).toEqual([]);
  });

  it('ranks cells with the fields of the contract; takes the filters and the z slice', async () => {
    const res = await worst('minSamples=1');
    validator.expectDocumented(res, 'GET', '/v1/projects/{id}/heatmap/worst-areas');
    expect(res.body.data).toEqual([
      {
        x: -87.5, // p95 16 ms like the other cell: more samples first
        y: 12.5,
        samples: 2,
        p95_frame_time: reportedQuantile(16),
        p99_frame_time: reportedQuantile(16),
        hitch_share_33ms: 0,
        hitch_share_50ms: 0,
        avg_fps: 60,
        platforms: [{ platform: 'pc', samples: 2 }],
      },
      expect.objectContaining({ x: 62.5, samples: 1, platforms: [{ platform: 'switch', samples: 1 }] }),
    ]);
    expect((await worst('minSamples=1&limit=1')).body.data).toHaveLength(1);
    expect((await worst('minSamples=1&source=automated')).body.data.map((a: { x: number }) => a.x)).toEqual([62.5]);
    expect((await worst('minSamples=1&zMin=5')).body.data.map((a: { samples: number }) => a.samples)).toEqual([1]);
  });

  it.each([
    ['minSamples 0', 'minSamples=0'],
    ['minSamples above 100000', 'minSamples=100001'],
    ['limit 0', 'limit=0'],
    ['limit above 50', 'limit=51'],
    ['zMin above zMax', 'zMin=2&zMax=1'],
    ['cellSize not allowed', 'cellSize=20'],
    ['unknown parameter', 'eventName=kill'],
  ])('400 for %s', async (_what, qs) => {
    validator.expectProblem(await worst(qs), 400);
  });

  it('404 for a map that does not exist', async () => {
    validator.expectProblem(await get('/heatmap/worst-areas?mapId=nowhere'), 404);
  });
});

describe('the heatmap z slice (zMin, zMax)', () => {
  const cells = async (qs: string) =>
    (await get(`/heatmap?mapId=arena&${qs}`)).body.data.map((c: { x: number; event_count: number }) => [
      c.x,
      c.event_count,
    ]);

  it('keeps the events with position_z in range', async () => {
    expect(await cells('zMin=5')).toEqual([[-87.5, 1]]); // upstairs
    expect(await cells('zMax=5')).toEqual([
      [-87.5, 1],
      [62.5, 1],
    ]);
    expect(await cells('zMin=-1.5&zMax=0')).toEqual([
      [-87.5, 1],
      [62.5, 1],
    ]);
    expect(await cells('zMin=10&zMax=10')).toEqual([[-87.5, 1]]);
  });

  it.each([
    ['zMin above zMax', 'zMin=5&zMax=1'],
    ['zMin not a number', 'zMin=ground'],
    ['zMax empty', 'zMax='],
    ['zMin infinite', 'zMin=1e999'],
    ['zMin repeated', 'zMin=1&zMin=2'],
  ])('400 for %s', async (_what, qs) => {
    validator.expectProblem(await get(`/heatmap?mapId=arena&${qs}`), 400);
  });
});

describe('platform, buildId and source on every analytics route', () => {
  it.each(ROUTES)('%s: 200 and documented with the filters', async (path, template) => {
    const build = takesBuildId(path) ? '&buildId=1.0' : '';
    const res = await get(`${path}${sep(path)}platform=pc&source=player${build}`);
    expect(res.status, res.text).toBe(200);
    validator.expectDocumented(res, 'GET', template);
  });

  it.each(ROUTES)(
    '%s: 400 for an unknown source, an empty or over-long platform, an over-long buildId',
    async (path) => {
      const bad = ['source=bot', 'source=', 'platform=', `platform=${'p'.repeat(65)}`];
      if (takesBuildId(path)) bad.push('buildId=', `buildId=${'b'.repeat(129)}`);
      for (const qs of bad) validator.expectProblem(await get(`${path}${sep(path)}${qs}`), 400);
      // The longest accepted values are accepted.
      const longest = takesBuildId(path) ? `&buildId=${'b'.repeat(128)}` : '';
      expect((await get(`${path}${sep(path)}platform=${'p'.repeat(64)}${longest}`)).status).toBe(200);
    },
  );

  it('heatmap: each filter keeps its events', async () => {
    const xs = async (qs: string) =>
      (await get(`/heatmap?mapId=arena&${qs}`)).body.data.map((c: { x: number }) => c.x) as number[];
    expect(await xs('')).toEqual([-87.5, 62.5]);
    expect(await xs('platform=switch')).toEqual([62.5]);
    expect(await xs('buildId=1.0')).toEqual([-87.5]);
    expect(await xs('source=automated')).toEqual([62.5]);
    expect(await xs('source=player')).toEqual([-87.5]);
    expect(await xs('source=player&platform=switch')).toEqual([]);
  });

  it('insights: counts of the filtered events', async () => {
    const total = async (qs: string) => (await get(`/insights?metric=count&groupBy=day&${qs}`)).body.data.total;
    expect(await total('')).toBe(3);
    expect(await total('source=automated')).toBe(1);
    expect(await total('platform=pc&buildId=1.0')).toBe(2);
    const players = async (qs: string) =>
      (await get(`/insights?metric=unique_players&groupBy=day&${qs}`)).body.data.total;
    expect(await players('')).toBe(2);
    expect(await players('source=player')).toBe(1);
    expect(await players('platform=switch')).toBe(1);
  });

  it('retention: cohorts of the filtered events only', async () => {
    const size = async (qs: string) =>
      (await get(`/retention?${qs}`)).body.data.cohorts.reduce((n: number, c: { size: number }) => n + c.size, 0);
    expect(await size('')).toBe(2);
    expect(await size('platform=switch')).toBe(1);
    expect(await size('source=automated&buildId=1.0')).toBe(0);
  });

  it('funnels: only the filtered events are steps', async () => {
    const counts = async (qs: string) =>
      (await get(`/funnels?steps=start,finish&${qs}`)).body.data.steps.map((s: { count: number }) => s.count);
    expect(await counts('')).toEqual([2, 1]);
    expect(await counts('source=automated')).toEqual([1, 0]);
    expect(await counts('platform=pc')).toEqual([1, 1]);
  });

  it('builds: the list and the comparison count the filtered events', async () => {
    const builds = async (qs: string) =>
      (await get(`/builds?${qs}`)).body.data.map((b: { buildId: string; samples: number }) => [b.buildId, b.samples]);
    expect(await builds('')).toEqual([
      ['1.0', 2], // seen last
      ['1.1', 1],
    ]);
    expect(await builds('platform=switch')).toEqual([['1.1', 1]]);
    expect(await builds('source=player')).toEqual([['1.0', 2]]);
    const compare = await get('/builds/compare?base=1.0&target=1.1&minSamples=1&source=automated');
    expect(compare.body.data.overall.base.fps.samples).toBe(0);
    expect(compare.body.data.overall.target.fps.samples).toBe(1);
  });
});
