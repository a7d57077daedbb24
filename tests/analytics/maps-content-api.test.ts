import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { startApi, type TestApi } from '../api/support/api-harness.js';
import { OpenApiValidator } from '../api/support/openapi-validator.js';
import { DEFAULT_MAP_FIELDS, uploadMap } from './api-helpers.js';
import { insertEvents } from './event-fixtures.js';
import { jpegImage, pngImage, webpImage } from './image-fixtures.js';

let api: TestApi;
let a: BootstrapResult;
let b: BootstrapResult;
let validator: OpenApiValidator;

beforeAll(async () => {
  api = await startApi();
  [a, b] = await Promise.all([bootstrapTenant(api.pool, { plan: 'pro' }), bootstrapTenant(api.pool, { plan: 'pro' })]);
  validator = new OpenApiValidator(api.api.openApiDocument);
});
afterAll(() => api.close());

const upload = (fields: Record<string, string | number>, file?: Parameters<typeof uploadMap>[1]['file']) =>
  uploadMap(api, { key: a.keys.readWrite!, projectId: a.projectId, fields, file });

describe('map upload', () => {
  it.each([
    ['PNG', pngImage(30, 20), 'image/png'],
    ['JPEG', jpegImage(640, 480), 'image/jpeg'],
    ['WebP', webpImage(1024, 512), 'image/webp'],
  ])(
    'stores a %s with the dimensions read from the image, and serves it behind authentication',
    async (kind, bytes, type) => {
      const mapId = `map-${kind}`;
      // the client's content type is ignored: the bytes decide
      const res = await upload(
        { ...DEFAULT_MAP_FIELDS, mapId, worldMinZ: -5, worldMaxZ: 20 },
        { bytes, type: 'application/octet-stream' },
      );
      expect(res.status, res.text).toBe(201);
      validator.expectDocumented(res, 'POST', '/v1/maps/upload');
      const [width, height] = kind === 'PNG' ? [30, 20] : kind === 'JPEG' ? [640, 480] : [1024, 512];
      expect(res.body.data).toMatchObject({
        mapId,
        name: 'Arena',
        worldMinX: -100,
        worldMaxY: 50,
        worldMinZ: -5,
        worldMaxZ: 20,
        imageWidth: width,
        imageHeight: height,
      });
      const imageUrl: string = res.body.data.imageUrl;
      const image = await fetch(new URL(imageUrl, api.baseUrl), { headers: { 'x-api-key': a.keys.read! } });
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe(type);
      expect(Buffer.from(await image.arrayBuffer()).equals(bytes)).toBe(true);
      expect((await fetch(new URL(imageUrl, api.baseUrl))).status).toBe(401);
      expect((await fetch(new URL(imageUrl, api.baseUrl), { headers: { 'x-api-key': b.keys.full! } })).status).toBe(
        404,
      );
    },
  );

  it.each([
    ['text with an image content type', { bytes: Buffer.from('<svg onload=alert(1)>'), type: 'image/png' }],
    ['a GIF', { bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), type: 'image/gif' }],
    ['a truncated PNG', { bytes: pngImage(4, 4).subarray(0, 12), type: 'image/png' }],
    ['no file', null],
  ])('refuses %s with 400', async (_what, file) => {
    validator.expectProblem(await upload({ ...DEFAULT_MAP_FIELDS, mapId: 'bad' }, file), 400);
  });

  it.each([
    ['missing bounds', { name: 'x', mapId: 'x', worldMinX: 0, worldMinY: 0, worldMaxX: 10 }],
    ['max not above min', { ...DEFAULT_MAP_FIELDS, worldMaxX: -100 }],
    ['non-numeric bound', { ...DEFAULT_MAP_FIELDS, worldMinY: 'north' }],
    ['only one z bound', { ...DEFAULT_MAP_FIELDS, worldMinZ: 0 }],
    ['mapId of 256 characters', { ...DEFAULT_MAP_FIELDS, mapId: 'm'.repeat(256) }],
    ['unknown field', { ...DEFAULT_MAP_FIELDS, zoneId: 7 }],
  ])('refuses %s with 400', async (_what, fields) => {
    validator.expectProblem(await upload(fields), 400);
  });

  it('refuses a JSON body with 415 and a file over the cap with 413', async () => {
    const json = await api.request('/v1/maps/upload', {
      method: 'POST',
      key: a.keys.readWrite!,
      projectId: a.projectId,
      json: DEFAULT_MAP_FIELDS,
    });
    validator.expectProblem(json, 415);
    const huge = Buffer.concat([pngImage(2, 2), Buffer.alloc(10 * 1_048_576)]);
    validator.expectProblem(await upload({ ...DEFAULT_MAP_FIELDS, mapId: 'huge' }, { bytes: huge }), 413);
  });

  it('refuses with 400 a PNG whose header claims 100000 × 100000 pixels (it would size the heatmap canvas)', async () => {
    const claim = pngImage(4, 4);
    claim.writeUInt32BE(100_000, 16); // IHDR width
    claim.writeUInt32BE(100_000, 20); // IHDR height
    const res = await upload({ ...DEFAULT_MAP_FIELDS, mapId: 'giant' }, { bytes: claim });
    validator.expectProblem(res, 400);
    expect(res.body.detail).toMatch(/at most 16384 × 16384/);
  });

  it('re-uploading a mapId replaces it: same id and createdAt, new bounds, image and updatedAt', async () => {
    const first = await upload({ ...DEFAULT_MAP_FIELDS, mapId: 'replace-me' }, { bytes: pngImage(8, 8) });
    const second = await upload(
      { ...DEFAULT_MAP_FIELDS, mapId: 'replace-me', name: 'Arena v2', worldMaxX: 400 },
      { bytes: pngImage(16, 8) },
    );
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({
      id: first.body.data.id,
      createdAt: first.body.data.createdAt,
      name: 'Arena v2',
      worldMaxX: 400,
      imageWidth: 16,
    });
    expect(Date.parse(second.body.data.updatedAt)).toBeGreaterThan(Date.parse(first.body.data.updatedAt));
    expect(second.body.data.imageUrl).not.toBe(first.body.data.imageUrl);
    const list = await api.request(`/v1/projects/${a.projectId}/maps`, { key: a.keys.read! });
    expect(list.body.data.filter((m: { mapId: string }) => m.mapId === 'replace-me')).toHaveLength(1);
  });

  it('lists newest first; delete removes the record and keeps the image; a second delete is 404', async () => {
    await upload({ ...DEFAULT_MAP_FIELDS, mapId: 'older' });
    const newer = await upload({ ...DEFAULT_MAP_FIELDS, mapId: 'newer' }, { bytes: pngImage(9, 9) });
    const list = await api.request(`/v1/projects/${a.projectId}/maps`, { key: a.keys.read! });
    validator.expectDocumented(list, 'GET', '/v1/projects/{id}/maps');
    const ids = list.body.data.map((m: { mapId: string }) => m.mapId);
    expect(ids.indexOf('newer')).toBeLessThan(ids.indexOf('older'));
    const times = list.body.data.map((m: { createdAt: string }) => Date.parse(m.createdAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));

    const del = await api.request(`/v1/projects/${a.projectId}/maps/newer`, {
      method: 'DELETE',
      key: a.keys.readWrite!,
    });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true, data: { mapId: 'newer' } });
    const image = await fetch(new URL(newer.body.data.imageUrl, api.baseUrl), {
      headers: { 'x-api-key': a.keys.read! },
    });
    expect(image.status).toBe(200);
    validator.expectProblem(
      await api.request(`/v1/projects/${a.projectId}/maps/newer`, { method: 'DELETE', key: a.keys.readWrite! }),
      404,
    );
    validator.expectProblem(
      await api.request(`/v1/projects/${a.projectId}/heatmap?mapId=newer`, { key: a.keys.read! }),
      404,
    );
  });
});

describe('content registry', () => {
  const content = (init: Parameters<TestApi['request']>[1] & { path?: string }) =>
    api.request(init.path ?? '/v1/content', { key: a.keys.readWrite!, projectId: a.projectId, ...init });

  it('upserts, lists, labels insight groups, deletes', async () => {
    const created = await content({
      method: 'POST',
      json: { type: 'map', key: 'm_03', displayName: 'Harbour', metadata: { chapter: 3 } },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.data).toMatchObject({
      created: true,
      entry: { type: 'map', key: 'm_03', displayName: 'Harbour', metadata: { chapter: 3 } },
    });
    const updated = await content({
      method: 'POST',
      json: { type: 'map', key: 'm_03', displayName: 'Harbour at night' },
    });
    expect(updated.body.data).toMatchObject({
      created: false,
      entry: { displayName: 'Harbour at night', metadata: {} },
    });
    await content({ method: 'POST', json: { type: 'event', key: 'boss_kill', displayName: 'Boss defeated' } });

    const list = await content({});
    validator.expectDocumented(list, 'GET', '/v1/content');
    expect(list.body.data.map((e: { type: string; key: string }) => `${e.type}:${e.key}`)).toEqual([
      'event:boss_kill',
      'map:m_03',
    ]);
    expect((await content({ path: '/v1/content?type=map' })).body.data).toHaveLength(1);

    await insertEvents(api.clickhouse, [
      { projectId: a.projectId, at: new Date(Date.now() - 3_600_000), mapId: 'm_03', eventName: 'boss_kill' },
      { projectId: a.projectId, at: new Date(Date.now() - 3_600_000), mapId: 'm_04', eventName: 'spawn' },
    ]);
    const byMap = await api.request(`/v1/projects/${a.projectId}/insights?metric=count&groupBy=map_id`, {
      key: a.keys.read!,
    });
    expect(byMap.body.data.rows).toEqual(
      expect.arrayContaining([
        { group: 'm_03', value: 1, label: 'Harbour at night' },
        { group: 'm_04', value: 1 },
      ]),
    );
    const byEvent = await api.request(`/v1/projects/${a.projectId}/insights?metric=count&groupBy=event_name`, {
      key: a.keys.read!,
    });
    expect(byEvent.body.data.rows).toContainEqual({ group: 'boss_kill', value: 1, label: 'Boss defeated' });

    const del = await content({ method: 'DELETE', path: '/v1/content?type=map&key=m_03' });
    expect(del.body).toMatchObject({
      success: true,
      data: { type: 'map', key: 'm_03', displayName: 'Harbour at night' },
    });
    validator.expectProblem(await content({ method: 'DELETE', path: '/v1/content?type=map&key=m_03' }), 404);
  });

  it.each([
    ['a bad type', { type: 'Map Type', key: 'k', displayName: 'x' }],
    ['an empty key', { type: 'map', key: '', displayName: 'x' }],
    ['no display name', { type: 'map', key: 'k' }],
    ['metadata that is not an object', { type: 'map', key: 'k', displayName: 'x', metadata: [1, 2] }],
    ['metadata over 16 KiB', { type: 'map', key: 'k', displayName: 'x', metadata: { blob: 'x'.repeat(17_000) } }],
    ['an unknown field', { type: 'map', key: 'k', displayName: 'x', colour: 'red' }],
  ])('refuses %s with 400', async (_what, json) => {
    validator.expectProblem(await content({ method: 'POST', json }), 400);
  });

  it('needs X-Project-Id', async () => {
    validator.expectProblem(await api.request('/v1/content', { key: a.keys.read! }), 400);
  });
});

describe('cross-project attempts (a key of project B on project A)', () => {
  it.each([
    ['heatmap', () => ({ path: `/v1/projects/${a.projectId}/heatmap?mapId=arena` })],
    ['maps', () => ({ path: `/v1/projects/${a.projectId}/maps` })],
    ['map delete', () => ({ path: `/v1/projects/${a.projectId}/maps/older`, method: 'DELETE' })],
    ['insights', () => ({ path: `/v1/projects/${a.projectId}/insights?metric=count&groupBy=day` })],
    ['retention', () => ({ path: `/v1/projects/${a.projectId}/retention` })],
    ['content', () => ({ path: '/v1/content', projectId: a.projectId })],
    [
      'content upsert',
      () => ({
        path: '/v1/content',
        method: 'POST',
        projectId: a.projectId,
        json: { type: 'map', key: 'x', displayName: 'pwned' },
      }),
    ],
    ['export', () => ({ path: '/v1/data/export', projectId: a.projectId })],
    ['erase', () => ({ path: '/v1/data/erase', method: 'POST', projectId: a.projectId, json: { playerIds: ['p1'] } })],
  ])('%s is a 404, as if project A did not exist', async (_what, build) => {
    const { path, ...init } = build();
    const res = await api.request(path, { ...init, key: b.keys.full! });
    validator.expectProblem(res, 404);
    expect(res.body.detail).toBe('Project not found.');
  });

  it('a map upload with project B’s key and project A’s id changes nothing in A', async () => {
    const res = await uploadMap(api, {
      key: b.keys.full!,
      projectId: a.projectId,
      fields: { ...DEFAULT_MAP_FIELDS, mapId: 'intruder' },
    });
    expect(res.status).toBe(404);
    const list = await api.request(`/v1/projects/${a.projectId}/maps`, { key: a.keys.read! });
    expect(list.body.data.map((m: { mapId: string }) => m.mapId)).not.toContain('intruder');
  });
});
