import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { queryProjectActivity } from '@framedeck/clickhouse';
import { startApi, type TestApi } from './support/api-harness.js';
import { OpenApiValidator } from './support/openapi-validator.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let api: TestApi;
let validator: OpenApiValidator;
let t: BootstrapResult;
const now = Date.now();

function event(projectId: string, atMs: number, player: string, session: string, eventId = randomUUID()) {
  return {
    project_id: projectId,
    event_id: eventId,
    event_name: 'tick',
    timestamp_us: atMs * 1000 + 123,
    timestamp: Math.floor(atMs / 1000),
    session_id: session,
    player_id: player,
    map_id: 'arena',
  };
}

const day = (offsetDays: number) => new Date(now + offsetDays * DAY).toISOString().slice(0, 10);

beforeAll(async () => {
  api = await startApi();
  validator = new OpenApiValidator(api.api.openApiDocument);
  t = await bootstrapTenant(api.pool, { plan: 'pro' });
  const other = await bootstrapTenant(api.pool, { plan: 'pro' });
  const newest = event(t.projectId, now - HOUR, 'p1', 's1');
  const insert = (values: object[], table = 'events') =>
    api.clickhouse.insertJsonRows(table, values as Record<string, unknown>[]);
  const stored = [
    newest,
    event(t.projectId, now - 2 * HOUR, 'p2', 's1'),
    event(t.projectId, now - 2 * HOUR, '', 's2'), // no player id: not an active player
    event(t.projectId, now - 3 * DAY, 'p3', 's3'),
    event(t.projectId, now - 10 * DAY, 'p4', 's4'), // outside 7 d, not the newest
    event(other.projectId, now, 'q1', 'z1'), // another project's
  ];
  await insert(stored);
  await insert(stored, 'rollup_input'); // as the consumer feeds the rollups, once per batch
  await insert([newest]); // a redelivered duplicate, in another part: FINAL collapses it
  const batch = randomUUID();
  await insert(
    [
      { project_id: t.projectId, day: day(0), reason: 'timestamp_out_of_range', batch_id: batch, count: 3 },
      { project_id: t.projectId, day: day(-1), reason: 'empty_event_name', batch_id: randomUUID(), count: 2 },
      { project_id: t.projectId, day: day(-3), reason: 'too_old_to_show', batch_id: randomUUID(), count: 7 },
      { project_id: other.projectId, day: day(0), reason: 'not_mine', batch_id: randomUUID(), count: 1 },
    ],
    'event_rejections',
  );
  await insert(
    [{ project_id: t.projectId, day: day(0), reason: 'timestamp_out_of_range', batch_id: batch, count: 3 }],
    'event_rejections',
  ); // the same batch counted again after a redelivery
  await api.pool.query(
    `INSERT INTO map_images (project_id, sha256, content_type, width, height, bytes)
     VALUES ($1, repeat('a', 64), 'image/png', 2, 2, '\\x00')`,
    [t.projectId],
  );
  for (const mapId of ['arena', 'harbour']) {
    await api.pool.query(
      `INSERT INTO maps (project_id, map_id, name, image_sha256, world_min_x, world_min_y, world_max_x, world_max_y,
                         image_width, image_height)
       VALUES ($1, $2, $2, repeat('a', 64), 0, 0, 100, 100, 2, 2)`,
      [t.projectId, mapId],
    );
  }
  await api.pool.query(`UPDATE api_keys SET deactivated_at = now() WHERE project_id = $1 AND preset = 'read'`, [
    t.projectId,
  ]);
});
afterAll(() => api.close());

it('reports the project, its recent events, players, sessions, rejections, maps and active keys', async () => {
  const res = await api.request(`/v1/projects/${t.projectId}/status`, { key: t.keys.readWrite });
  validator.expectDocumented(res, 'GET', '/v1/projects/{id}/status');
  expect(res.body.data).toEqual({
    id: t.projectId,
    name: t.projectName,
    createdAt: expect.any(String),
    tenantId: t.tenantId,
    planId: 'pro',
    events: { last24h: 3, last7d: 4, lastEventAt: new Date(now - HOUR).toISOString() },
    activePlayers24h: 2,
    activeSessions24h: 2,
    rejectedEvents: {
      since: day(-1),
      total: 5,
      byReason: [
        { reason: 'timestamp_out_of_range', count: 3 },
        { reason: 'empty_event_name', count: 2 },
      ],
    },
    maps: 2,
    activeKeys: 3,
    dataWindow: { retentionDays: 90, rollupMonths: 13, oldestRetainedDay: expect.any(String) },
  });
  // Served from rollup_project_hours and rollup_hour_sketches: the same as the plain query over the raw events.
  expect(await queryProjectActivity(api.clickhouse, t.projectId, 'rollups')).toEqual(
    await queryProjectActivity(api.clickhouse, t.projectId, 'events'),
  );
});

it('a project without events reports zeros and no last event', async () => {
  const empty = await bootstrapTenant(api.pool, { plan: 'free' });
  const res = await api.request(`/v1/projects/${empty.projectId}/status`, { key: empty.keys.full });
  expect(res.body.data).toMatchObject({
    events: { last24h: 0, last7d: 0, lastEventAt: null },
    activePlayers24h: 0,
    activeSessions24h: 0,
    rejectedEvents: { total: 0, byReason: [] },
    maps: 0,
    activeKeys: 2,
  });
});
