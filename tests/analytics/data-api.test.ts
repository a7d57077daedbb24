import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { sql } from '@framedeck/clickhouse';
import { upsertContentEntry } from '@framedeck/postgres';
import { startApi, type TestApi } from '../api/support/api-harness.js';
import { OpenApiValidator } from '../api/support/openapi-validator.js';
import { waitFor } from '../support/wait.js';
import { uploadMap } from './api-helpers.js';
import { insertEvents, type FixtureEvent } from './event-fixtures.js';
import { createLogger } from '@framedeck/logging';
import { startApiWorkers } from '../../services/api/src/workers.js';
import { sweepErasureJobs } from '../../services/api/src/project-data/erasure-jobs.service.js';

let api: TestApi;
let a: BootstrapResult;
let b: BootstrapResult;
let validator: OpenApiValidator;
const HOUR = 3_600_000;
const hoursAgo = (h: number) => new Date(Date.now() - h * HOUR);

const events = (projectId: string, playerId: string, n: number): FixtureEvent[] =>
  Array.from({ length: n }, (_, i) => ({
    projectId,
    playerId,
    eventName: `e${i}`,
    at: hoursAgo(i + 1),
    mapId: 'arena',
  }));

beforeAll(async () => {
  api = await startApi();
  [a, b] = await Promise.all([bootstrapTenant(api.pool, { plan: 'pro' }), bootstrapTenant(api.pool, { plan: 'pro' })]);
  validator = new OpenApiValidator(api.api.openApiDocument);
  await insertEvents(api.clickhouse, [
    ...events(a.projectId, 'alice', 3),
    ...events(a.projectId, 'bob', 4),
    ...events(a.projectId, 'carol', 5),
    ...events(b.projectId, 'alice', 6),
  ]);
  await uploadMap(api, { key: a.keys.readWrite!, projectId: a.projectId });
  await upsertContentEntry(api.pool, a.projectId, {
    type: 'map',
    key: 'arena',
    displayName: 'The Arena',
    metadata: { tier: 1 },
  });
});
afterAll(() => api.close());

const rowsOf = async (projectId: string, playerId: string) => {
  const [row] = await api.clickhouse.rows<{ n: string }>(
    sql`SELECT count() AS n FROM events FINAL WHERE project_id = toUUID(${projectId}) AND player_id = ${playerId}`,
  );
  return Number(row!.n);
};

describe('export', () => {
  const exportOf = (qs = '') => api.request(`/v1/data/export${qs}`, { key: a.keys.full!, projectId: a.projectId });
  const lines = (text: string) =>
    text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('NDJSON: header, maps, content, alert rules, profiles, the project’s events only, then the end trailer', async () => {
    const res = await exportOf();
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    validator.expectDocumented(res, 'GET', '/v1/data/export');
    const all = lines(res.text);
    expect(all[0]).toMatchObject({ kind: 'export', projectId: a.projectId });
    expect(all.filter((l) => l.kind === 'map').map((l) => l.mapId)).toEqual(['arena']);
    expect(all.filter((l) => l.kind === 'content')).toEqual([
      expect.objectContaining({ key: 'arena', displayName: 'The Arena', metadata: { tier: 1 } }),
    ]);
    expect(all.filter((l) => l.kind === 'threshold_profile').length).toBeGreaterThan(0);
    const exported = all.filter((l) => l.kind === 'event');
    expect(exported).toHaveLength(12);
    expect(new Set(exported.map((e) => e.player_id))).toEqual(new Set(['alice', 'bob', 'carol']));
    expect(all.at(-1)).toEqual({ kind: 'end', events: 12 });
  });

  it('from/to filter events; include picks resources', async () => {
    const qs = `?include=events&from=${hoursAgo(2.5).toISOString()}&to=${hoursAgo(0.5).toISOString()}`;
    const all = lines((await exportOf(qs)).text);
    expect(all.filter((l) => l.kind === 'event')).toHaveLength(6); // the 1 h and 2 h old event of each player
    expect(all.filter((l) => l.kind === 'map')).toHaveLength(0);
  });

  it('CSV: events with a header row', async () => {
    const res = await exportOf('?format=csv');
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = res.text.trim().split('\n');
    expect(rows[0]).toContain('"event_name"');
    expect(rows).toHaveLength(13);
  });

  it("CSV: cells an SDK sent that a spreadsheet would evaluate are prefixed with ', numbers stay numbers", async () => {
    const hostile = await bootstrapTenant(api.pool, { plan: 'pro' });
    await insertEvents(api.clickhouse, [
      {
        projectId: hostile.projectId,
        eventName: '=HYPERLINK("http://evil.example","x")',
        playerId: '+1 555',
        sessionId: '-2+3',
        mapId: '@SUM(A1)',
        position: [-12.5, 3],
        at: hoursAgo(1),
      },
    ]);
    const res = await api.request('/v1/data/export?format=csv', {
      key: hostile.keys.full!,
      projectId: hostile.projectId,
    });
    expect(res.status).toBe(200);
    const row = res.text.trim().split('\n')[1]!;
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(row).toContain(`"'+1 555"`);
    expect(row).toContain(`"'-2+3"`);
    expect(row).toContain(`"'@SUM(A1)"`);
    expect(row).toContain(',-12.5,');
    expect(row).not.toMatch(/,"[=+\-@]/);
  });

  it.each([
    '?format=xml',
    '?format=csv&include=maps',
    '?include=players',
    '?from=yesterday',
    `?from=${new Date().toISOString()}&to=${hoursAgo(1).toISOString()}`,
  ])('400 for %s', async (qs) => validator.expectProblem(await exportOf(qs), 400));
});

describe('erasure', () => {
  const erase = (json: unknown, key = a.keys.full!) =>
    api.request('/v1/data/erase', { method: 'POST', key, projectId: a.projectId, json });

  it('removes every event of the named players in this project only; the job says done only then', async () => {
    const res = await erase({ playerIds: ['alice', 'bob'] });
    expect(res.status, res.text).toBe(202);
    validator.expectDocumented(res, 'POST', '/v1/data/erase');
    expect(res.body.data).toMatchObject({ status: 'running', playerCount: 2, round: 1 });
    const jobId: string = res.body.data.jobId;

    const done = await waitFor(
      async () => {
        // The erasure sweep (a worker of the API process) starts the deletion; run it here.
        await sweepErasureJobs({ pool: api.pool, clickhouseWriter: api.clickhouse });
        const poll = await api.request(`/v1/data/erase/${jobId}`, { key: a.keys.full!, projectId: a.projectId });
        expect(poll.status, poll.text).toBe(200);
        return poll.body.data.status === 'done' ? poll : undefined;
      },
      { timeoutMs: 60_000, what: 'the erasure job to be done' },
    );
    validator.expectDocumented(done, 'GET', '/v1/data/erase/{jobId}');
    expect(done.body.data.finishedAt).not.toBeNull();
    expect(await rowsOf(a.projectId, 'alice')).toBe(0);
    expect(await rowsOf(a.projectId, 'bob')).toBe(0);
    expect(await rowsOf(a.projectId, 'carol')).toBe(5);
    expect(await rowsOf(b.projectId, 'alice')).toBe(6);
    const { rows } = await api.pool.query('SELECT player_ids FROM erasure_jobs WHERE id = $1', [jobId]);
    expect(rows[0].player_ids).toEqual([]); // the service forgets whom it erased
  });

  it('finishes in the background: a job nobody polls still reaches done and forgets the ids', async () => {
    // The API process's workers (services/api/src/workers.ts), as main.ts starts them beside the app.
    const sweeping = startApiWorkers(
      { pool: api.pool, clickhouseWriter: api.clickhouse, logger: createLogger('erasure-sweep-test', 'silent') },
      { api: { ...api.config.api, erasureSweepMs: 200 }, dataLifecycle: api.config.dataLifecycle },
      { retention: false },
    );
    try {
      await insertEvents(api.clickhouse, events(a.projectId, 'dave', 2));
      expect(await rowsOf(a.projectId, 'dave')).toBe(2);
      const res = await erase({ playerIds: ['dave'] });
      expect(res.status, res.text).toBe(202);
      const jobId: string = res.body.data.jobId;
      await waitFor(
        async () =>
          (
            await api.pool.query(`SELECT 1 FROM erasure_jobs WHERE id = $1 AND status = 'done' AND player_ids = '{}'`, [
              jobId,
            ])
          ).rowCount === 1,
        { timeoutMs: 60_000, what: 'the unpolled erasure job to be done' },
      );
      expect(await rowsOf(a.projectId, 'dave')).toBe(0);
    } finally {
      await sweeping.stop();
    }
  });

  it('another project’s job is not visible; unknown jobs are 404', async () => {
    const res = await erase({ playerIds: ['carol'] });
    const foreign = await api.request(`/v1/data/erase/${res.body.data.jobId}`, {
      key: b.keys.full!,
      projectId: b.projectId,
    });
    validator.expectProblem(foreign, 404);
    validator.expectProblem(
      await api.request(`/v1/data/erase/${randomUUID()}`, { key: a.keys.full!, projectId: a.projectId }),
      404,
    );
  });

  it.each([
    ['no ids', { playerIds: [] }],
    ['too many ids', { playerIds: Array.from({ length: 501 }, (_, i) => `p${i}`) }],
    ['an id over 256 characters', { playerIds: ['p'.repeat(257)] }],
    ['an empty id', { playerIds: [''] }],
    ['duplicate ids', { playerIds: ['x', 'x'] }],
    ['not a list', { playerIds: 'alice' }],
  ])('400 for %s', async (_what, json) => {
    validator.expectProblem(await erase(json), 400);
  });

  it('needs data:admin: a read/write key is refused and nothing is erased', async () => {
    validator.expectProblem(await erase({ playerIds: ['carol'] }, a.keys.readWrite!), 403);
  });
});
