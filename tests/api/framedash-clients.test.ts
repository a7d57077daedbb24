import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { DEFAULT_MAP_FIELDS, uploadMap } from '../analytics/api-helpers.js';
import { insertEvents } from '../analytics/event-fixtures.js';
import { pngImage } from '../analytics/image-fixtures.js';
import { startApi, type TestApi } from './support/api-harness.js';
import { OpenApiValidator } from './support/openapi-validator.js';

// Each request here is sent in the exact form the public Framedash CLI / MCP server sends it
// (read from their sources; docs/clients.md lists command by command), against the real stack.

let api: TestApi;
let t: BootstrapResult;
let validator: OpenApiValidator;
const P = () => `/v1/projects/${t.projectId}`;
const write = () => t.keys.readWrite!;
const read = () => t.keys.read!;

beforeAll(async () => {
  api = await startApi();
  t = await bootstrapTenant(api.pool, { plan: 'pro' });
  validator = new OpenApiValidator(api.api.openApiDocument);
  const now = Date.now();
  await insertEvents(api.clickhouse, [
    ...['login', 'tutorial', 'purchase'].map((eventName, i) => ({
      projectId: t.projectId,
      eventName,
      playerId: 'p1',
      at: new Date(now - 3_600_000 + i * 60_000),
    })),
    ...Array.from({ length: 3 }, (_, i) => ({
      projectId: t.projectId,
      eventName: 'perf_heartbeat',
      at: new Date(now - 600_000 + i * 1000),
      fps: 60,
      buildId: i === 0 ? 'old-build' : 'ci-1234',
    })),
  ]);
});
afterAll(() => api.close());

describe('funnel (CLI funnel, MCP get_funnel)', () => {
  it('takes comma-separated steps and window in seconds', async () => {
    const res = await api.request(`${P()}/funnels?steps=login%2Ctutorial%2Cpurchase&days=7&window=3600`, {
      key: read(),
    });
    validator.expectDocumented(res, 'GET', '/v1/projects/{id}/funnels');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.windowSeconds).toBe(3600);
    expect(res.body.data.steps.map((s: { eventName: string; count: number }) => [s.eventName, s.count])).toEqual([
      ['login', 1],
      ['tutorial', 1],
      ['purchase', 1],
    ]);
  });

  it('refuses window together with windowSeconds', async () => {
    const res = await api.request(`${P()}/funnels?steps=a,b&window=60&windowSeconds=60`, { key: read() });
    validator.expectProblem(res, 400);
    expect(res.body.detail).toContain('alias');
  });
});

describe('builds (CLI builds, run-profile-test ingest wait)', () => {
  it('rows carry build_id and event_count; buildId narrows the list; fresh=1 is accepted', async () => {
    const all = await api.request(`${P()}/builds?days=7`, { key: read() });
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.map((b: { build_id: string }) => b.build_id).sort()).toEqual(['ci-1234', 'old-build']);
    const one = await api.request(`${P()}/builds?days=7&buildId=ci-1234&fresh=1`, { key: read() });
    validator.expectDocumented(one, 'GET', '/v1/projects/{id}/builds');
    expect(one.body.data).toEqual([
      expect.objectContaining({ buildId: 'ci-1234', build_id: 'ci-1234', samples: 2, event_count: 2 }),
    ]);
    expect((await api.request(`${P()}/builds?buildId=never-built`, { key: read() })).body.data).toEqual([]);
  });
});

describe('threshold profiles (CLI threshold-profiles create/delete)', () => {
  it('creates from the flat fields (strings, as the CLI sends them), updates and deletes', async () => {
    const created = await api.request(`${P()}/threshold-profiles`, {
      method: 'POST',
      key: write(),
      json: { name: 'Console 30', fpsGood: '30', fpsWarn: '20', memoryGood: '3000', platform: 'ps5', gpu: 'RDNA2' },
    });
    validator.expectDocumented(created, 'POST', '/v1/projects/{id}/threshold-profiles');
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Console 30',
      isDefault: false,
      fps: { good: 30, warn: 20 },
      memoryMb: { good: 3000, warn: 6144 }, // the default's warn limit where none was sent
      frameTimeMs: { good: 16.7, warn: 33.3 },
      platform: 'ps5',
      gpu: 'RDNA2',
      resolution: null,
    });
    const id = created.body.data.id;
    const patched = await api.request(`${P()}/threshold-profiles/${id}`, {
      method: 'PATCH',
      key: write(),
      json: { fps: { warn: 25 }, platform: null },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ fps: { good: 30, warn: 25 }, platform: null, gpu: 'RDNA2' });

    const disordered = await api.request(`${P()}/threshold-profiles/${id}`, {
      method: 'PATCH',
      key: write(),
      json: { fpsWarn: 45 },
    });
    validator.expectProblem(disordered, 400);
    const duplicate = await api.request(`${P()}/threshold-profiles`, {
      method: 'POST',
      key: write(),
      json: { name: 'Console 30' },
    });
    validator.expectProblem(duplicate, 409);
    validator.expectProblem(
      await api.request(`${P()}/threshold-profiles`, { method: 'POST', key: read(), json: { name: 'x' } }),
      403,
    );

    const deleted = await api.request(`${P()}/threshold-profiles/${id}`, { method: 'DELETE', key: write() });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.data).toEqual({ id });
    validator.expectProblem(
      await api.request(`${P()}/threshold-profiles/${id}`, { method: 'DELETE', key: write() }),
      404,
    );
  });

  it('keeps the default profile and profiles a rule uses (409)', async () => {
    const profiles = (await api.request(`${P()}/threshold-profiles`, { key: read() })).body.data;
    const defaultId = profiles.find((p: { isDefault: boolean }) => p.isDefault).id;
    validator.expectProblem(
      await api.request(`${P()}/threshold-profiles/${defaultId}`, { method: 'DELETE', key: write() }),
      409,
    );
  });
});

describe('alert rules with several threshold profiles (CLI alerts create/update)', () => {
  it('takes thresholdProfileIds, or thresholdProfileId as a list of one, and lists them in order', async () => {
    const map = await uploadMap(api, {
      key: write(),
      projectId: t.projectId,
      fields: { name: 'Dust', mapId: 'dust', worldMinX: 0, worldMinY: 0, worldMaxX: 100, worldMaxY: 100 },
    });
    const mapId = map.body.data.id;
    const profile = async (name: string) =>
      (await api.request(`${P()}/threshold-profiles`, { method: 'POST', key: write(), json: { name } })).body.data.id;
    const [pc, consoleProfile] = [await profile('PC'), await profile('Console')];
    const rule = {
      name: 'Low fps',
      mapId,
      metric: 'fps',
      thresholdLevel: 'warn',
      failPercentage: 25,
      evaluationDays: 7,
      cellSize: 25,
      cooldownMinutes: 60,
    };
    const bundle = await api.request(`${P()}/alerts`, {
      method: 'POST',
      key: write(),
      json: { ...rule, thresholdProfileIds: [consoleProfile, pc] },
    });
    validator.expectDocumented(bundle, 'POST', '/v1/projects/{id}/alerts');
    expect(bundle.status, bundle.text).toBe(201);
    expect(bundle.body.data).toMatchObject({
      thresholdProfileId: consoleProfile,
      thresholdProfileName: 'Console',
      thresholdProfileIds: [consoleProfile, pc],
    });
    const single = await api.request(`${P()}/alerts`, {
      method: 'POST',
      key: write(),
      json: { ...rule, thresholdProfileId: pc },
    });
    expect(single.status, single.text).toBe(201);
    expect(single.body.data).toMatchObject({ thresholdProfileId: pc, thresholdProfileIds: [pc] });

    const reordered = await api.request(`${P()}/alerts/${bundle.body.data.id}`, {
      method: 'PATCH',
      key: write(),
      json: { thresholdProfileIds: [pc, consoleProfile] },
    });
    expect(reordered.status, reordered.text).toBe(200);
    expect(reordered.body.data).toMatchObject({ thresholdProfileId: pc, thresholdProfileIds: [pc, consoleProfile] });
    validator.expectProblem(
      await api.request(`${P()}/threshold-profiles/${consoleProfile}`, { method: 'DELETE', key: write() }),
      409,
    );
    validator.expectProblem(
      await api.request(`${P()}/alerts`, {
        method: 'POST',
        key: write(),
        json: { ...rule, thresholdProfileIds: [pc], thresholdProfileId: pc },
      }),
      400,
    );
  });
});

describe('content (CLI content import/delete, MCP content resource)', () => {
  it('imports in bulk, lists per project, deletes by id and by contentType + contentId', async () => {
    const imported = await api.request('/v1/content', {
      method: 'POST',
      key: write(),
      projectId: t.projectId,
      json: {
        entries: [
          {
            contentType: 'map',
            contentId: 'dust',
            displayName: 'Dust',
            description: 'Desert',
            category: 'pvp',
            metadata: { size: 'large' },
          },
          { contentType: 'event', contentId: 'login', displayName: 'Login', description: null, metadata: null },
        ],
      },
    });
    validator.expectDocumented(imported, 'POST', '/v1/content');
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.data).toMatchObject({ created: 2, updated: 0 });

    const listed = await api.request(`${P()}/content`, { key: read() });
    validator.expectDocumented(listed, 'GET', '/v1/projects/{id}/content');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ type: 'event', key: 'login', description: null, category: null, metadata: {} }),
      expect.objectContaining({ type: 'map', key: 'dust', description: 'Desert', category: 'pvp' }),
    ]);
    const dust = listed.body.data[1];

    const byId = await api.request(`/v1/content?id=${dust.id}`, {
      method: 'DELETE',
      key: write(),
      projectId: t.projectId,
    });
    expect(byId.status, byId.text).toBe(200);
    expect(byId.body.data).toMatchObject({ id: dust.id, key: 'dust' });
    const byKey = await api.request('/v1/content?contentType=event&contentId=login', {
      method: 'DELETE',
      key: write(),
      projectId: t.projectId,
    });
    expect(byKey.status, byKey.text).toBe(200);
    expect((await api.request(`${P()}/content`, { key: read() })).body.data).toEqual([]);
    validator.expectProblem(
      await api.request('/v1/content', { method: 'DELETE', key: write(), projectId: t.projectId }),
      400,
    );
  });

  it('stores an import all or nothing', async () => {
    const res = await api.request('/v1/content', {
      method: 'POST',
      key: write(),
      projectId: t.projectId,
      json: {
        entries: [
          { contentType: 'item', contentId: 'a', displayName: 'A' },
          { contentType: 'Not A Type', contentId: 'b', displayName: 'B' },
        ],
      },
    });
    validator.expectProblem(res, 400);
    expect((await api.request(`${P()}/content?type=item`, { key: read() })).body.data).toEqual([]);
  });
});

describe('map-capture --upload and the MCP heatmap by map UUID', () => {
  it('takes the image as `image` with imageWidth/imageHeight and answers {success, mapId, action}', async () => {
    const send = async () => {
      const form = new FormData();
      for (const [k, v] of Object.entries({
        mapId: 'harbour',
        name: 'harbour',
        worldMinX: '-50',
        worldMinY: '-50',
        worldMaxX: '50',
        worldMaxY: '50',
        imageWidth: '8',
        imageHeight: '4',
      }))
        form.set(k, v);
      form.set('image', new Blob([pngImage(8, 4)], { type: 'image/png' }), 'harbour.png');
      return api.request('/v1/maps/upload', { method: 'POST', key: write(), projectId: t.projectId, form });
    };
    const first = await send();
    validator.expectDocumented(first, 'POST', '/v1/maps/upload');
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ success: true, mapId: 'harbour', action: 'created' });
    expect(first.body.data).toMatchObject({ mapId: 'harbour', imageWidth: 8, imageHeight: 4 });
    expect((await send()).body).toMatchObject({ success: true, mapId: 'harbour', action: 'updated' });

    const byUuid = await api.request(`${P()}/heatmap?mapId=${first.body.data.id}&cellSize=25&days=7`, { key: read() });
    expect(byUuid.status, byUuid.text).toBe(200);
    expect((await api.request(`${P()}/heatmap?mapId=harbour&cellSize=25&days=7`, { key: read() })).status).toBe(200);
    const other = await bootstrapTenant(api.pool, { plan: 'pro' });
    const foreign = await api.request(`/v1/projects/${other.projectId}/heatmap?mapId=${first.body.data.id}`, {
      key: other.keys.read!,
    });
    validator.expectProblem(foreign, 404);
  });

  it('editor overlays: heatmap?…&includeZ=true gives each cell its height range (z, z_min, z_max)', async () => {
    const at = new Date(Date.now() - 3_600_000);
    await insertEvents(api.clickhouse, [
      { projectId: t.projectId, mapId: 'harbour', at, position: [-40, -40, 2], fps: 60, frameTimeMs: 16 },
      { projectId: t.projectId, mapId: 'harbour', at, position: [-35, -45, 8], fps: 50, frameTimeMs: 20 },
    ]);
    const withZ = await api.request(`${P()}/heatmap?mapId=harbour&cellSize=25&days=1&includeZ=true`, { key: read() });
    validator.expectDocumented(withZ, 'GET', '/v1/projects/{id}/heatmap');
    expect(withZ.body.data).toEqual([expect.objectContaining({ x: -37.5, y: -37.5, z: 5, z_min: 2, z_max: 8 })]);
    const flat = await api.request(`${P()}/heatmap?mapId=harbour&cellSize=25&days=1`, { key: read() });
    expect(flat.body.data[0]).not.toHaveProperty('z');
  });

  it('maps delete takes the id `maps list` shows (the UUID) as well as the mapId, within the project only', async () => {
    const upload = (mapId: string) =>
      uploadMap(api, { key: write(), projectId: t.projectId, fields: { ...DEFAULT_MAP_FIELDS, mapId, name: mapId } });
    const quay = (await upload('quay')).body.data;
    await upload('dock');
    const other = await bootstrapTenant(api.pool, { plan: 'pro' });
    const foreign = await api.request(`/v1/projects/${other.projectId}/maps/${quay.id}`, {
      method: 'DELETE',
      key: other.keys.readWrite!,
    });
    validator.expectProblem(foreign, 404);

    const byUuid = await api.request(`${P()}/maps/${quay.id}`, { method: 'DELETE', key: write() });
    validator.expectDocumented(byUuid, 'DELETE', '/v1/projects/{id}/maps/{mapId}');
    expect(byUuid.status, byUuid.text).toBe(200);
    expect(byUuid.body.data).toEqual({ mapId: 'quay' });
    expect((await api.request(`${P()}/maps/dock`, { method: 'DELETE', key: write() })).status).toBe(200);
    const left = (await api.request(`${P()}/maps`, { key: read() })).body.data.map((m: { mapId: string }) => m.mapId);
    expect(left).not.toContain('quay');
    expect(left).not.toContain('dock');
    validator.expectProblem(await api.request(`${P()}/maps/${quay.id}`, { method: 'DELETE', key: write() }), 404);
  });
});
