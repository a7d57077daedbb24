import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, createProjectWithKeys, type BootstrapResult } from '@framedeck/accounts';
import { projectDatabaseName } from '@framedeck/sql-sandbox';
import { FakeBearerVerifier } from '../api/support/fake-bearer-verifier.js';
import { startApi, type TestApi } from '../api/support/api-harness.js';
import { OpenApiValidator } from '../api/support/openapi-validator.js';
import { hostileQueries } from './hostile-queries.js';
import { dropProjectDatabases, seedSqlFixture } from './sql-fixture.js';

/** POST /v1/query through the real API: who may call it, and what each kind of failure answers. */
const verifier = new FakeBearerVerifier();
let api: TestApi;
let validator: OpenApiValidator;
let tenant: BootstrapResult;
let other: BootstrapResult;
let sibling: { projectId: string; keys: Partial<Record<string, string>> };

beforeAll(async () => {
  api = await startApi({ bearerVerifier: verifier });
  validator = new OpenApiValidator(api.api.openApiDocument);
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' });
  other = await bootstrapTenant(api.pool, { plan: 'pro' });
  sibling = await createProjectWithKeys(api.pool, { tenantId: tenant.tenantId, name: 'Sibling game' });
  await seedSqlFixture(api.clickhouse, { ours: tenant.projectId, theirs: other.projectId });
  verifier.tokens.set('token-read', {
    tenantId: tenant.tenantId,
    projectIds: [tenant.projectId],
    scopes: ['analytics:read'],
  });
  // A verifier bug must not hand out data:admin: the framework drops it.
  verifier.tokens.set('token-overreaching', {
    tenantId: tenant.tenantId,
    projectIds: [tenant.projectId],
    scopes: ['analytics:read', 'resources:write', 'data:admin'],
  });
});

afterAll(async () => {
  await dropProjectDatabases(api.clickhouse, [tenant.projectId, other.projectId, sibling.projectId]);
  await api.close();
});

const query = (json: unknown, auth: { key?: string; bearer?: string } = { key: tenant.keys.full! }) =>
  api.request('/v1/query', { method: 'POST', json, ...auth });

describe('POST /v1/query', () => {
  it('runs a query over the caller’s project and answers rows and rowCount', async () => {
    const res = await query({
      project_id: tenant.projectId,
      sql: 'SELECT event_name, count() AS n FROM events GROUP BY event_name ORDER BY event_name',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        rows: [
          { event_name: 'finish', n: 2 },
          { event_name: 'level_up', n: 2 },
          { event_name: 'start', n: 4 },
        ],
        rowCount: 3,
        truncated: false,
      },
    });
    validator.expectDocumented(res, 'POST', '/v1/query');
  });

  it('returns the right funnel and attribute numbers end to end', async () => {
    const funnel = await query({
      project_id: tenant.projectId,
      sql: "SELECT player_id, windowFunnel(3600)(timestamp, event_name = 'start', event_name = 'level_up', event_name = 'finish') AS level FROM events GROUP BY player_id ORDER BY player_id",
    });
    expect(funnel.body.data.rows).toEqual([
      { player_id: 'p1', level: 3 },
      { player_id: 'p2', level: 1 },
      { player_id: 'p3', level: 1 },
    ]);
    const keys = await query({
      project_id: tenant.projectId,
      sql: 'SELECT a.key AS key, count() AS n FROM events ARRAY JOIN attributes AS a GROUP BY key ORDER BY key',
    });
    expect(keys.body.data.rows).toEqual([
      { key: 'mode', n: 2 },
      { key: 'weapon', n: 4 },
    ]);
  });

  it('applies limit: default 1,000, at most 10,000; rowCount is the number of rows returned', async () => {
    const three = await query({ project_id: tenant.projectId, sql: 'SELECT * FROM events', limit: 3 });
    expect(three.body.data).toMatchObject({ rowCount: 3, truncated: true });
    expect(three.body.data.rows).toHaveLength(3);
    const many = await query({ project_id: tenant.projectId, sql: 'SELECT arrayJoin(range(1000)) AS n FROM events' });
    expect(many.body.data).toMatchObject({ rowCount: 1_000, truncated: true });
    for (const limit of [0, 10_001, 2.5, '10']) {
      const res = await query({ project_id: tenant.projectId, sql: 'SELECT 1 FROM events', limit });
      validator.expectProblem(res, 400);
      expect(res.body.detail).toMatch(/limit/);
    }
  });

  it.each([
    ['missing sql', { project_id: 'P' }],
    ['empty sql', { project_id: 'P', sql: '' }],
    ['sql not a string', { project_id: 'P', sql: ['SELECT 1'] }],
    ['project_id not a UUID', { project_id: 'not-a-uuid', sql: 'SELECT 1 FROM events' }],
    ['unknown member', { project_id: 'P', sql: 'SELECT 1 FROM events', settings: { readonly: 0 } }],
    ['over-long sql', { project_id: 'P', sql: `SELECT ${'1+'.repeat(40_000)}1 FROM events` }],
  ])('refuses a malformed body (%s) with 400', async (_name, body) => {
    const json = JSON.parse(JSON.stringify(body).replace('"P"', JSON.stringify(tenant.projectId)));
    validator.expectProblem(await query(json), 400);
  });
});

describe('who may call it', () => {
  const body = () => ({ project_id: tenant.projectId, sql: 'SELECT count() FROM events' });

  it.each(['read', 'readWrite', 'ingest'] as const)(
    'a %s key is refused with 403 (needs data:admin)',
    async (preset) => {
      const res = await query(body(), { key: tenant.keys[preset]! });
      validator.expectProblem(res, 403);
      expect(res.body.detail).toContain('data:admin');
    },
  );

  it.each(['token-read', 'token-overreaching'])('an OAuth bearer token (%s) is refused with 403', async (token) => {
    const res = await query(body(), { bearer: token });
    validator.expectProblem(res, 403);
    expect(res.body.detail).toMatch(/OAuth tokens never hold it/);
  });

  it('no credential is 401, and an unknown key too', async () => {
    validator.expectProblem(await query(body(), {}), 401);
    validator.expectProblem(await query(body(), { key: `fd_${'A'.repeat(43)}` }), 401);
  });

  it.each([
    ['another tenant’s project', () => other.projectId],
    ['another project of the same tenant', () => sibling.projectId],
    ['a project that does not exist', () => '00000000-0000-4000-8000-000000000000'],
  ])('a full key naming %s gets 404, the same as any project it does not hold', async (_name, projectId) => {
    const res = await query({ project_id: projectId(), sql: 'SELECT count() AS n, any(event_name) AS e FROM events' });
    validator.expectProblem(res, 404);
    expect(res.body.detail).toBe('Project not found.');
    expect(res.text).not.toMatch(/secret_b/);
  });

  it('a key holding the other project reads that project only', async () => {
    const res = await query(
      { project_id: other.projectId, sql: 'SELECT count() AS n, any(event_name) AS e FROM events' },
      { key: other.keys.full! },
    );
    expect(res.body.data.rows).toEqual([{ n: 5, e: 'secret_b_event' }]);
  });
});

describe('hostile queries through the API: 400 with the diagnostic, nothing foreign', () => {
  const catalogue = () =>
    hostileQueries({
      sharedDatabase: api.config.clickhouse.database,
      otherDatabase: projectDatabaseName(other.projectId),
      otherProjectId: other.projectId,
    });

  it('refuses every query of the catalogue', async () => {
    // Their database exists, so naming it is a real attempt.
    await query({ project_id: other.projectId, sql: 'SELECT 1 FROM events' }, { key: other.keys.full! });
    for (const hostile of catalogue()) {
      const res = await query({ project_id: tenant.projectId, sql: hostile.sql });
      expect(res.status, `${hostile.name}: ${res.text}`).toBe(400);
      validator.expectProblem(res, 400);
      expect(res.body.detail, hostile.name).toMatch(hostile.message);
      expect(res.body.error_category).toBe('validation');
      expect(res.text, hostile.name).not.toMatch(/secret_b/);
      // Modern servers echo the query in their diagnostic: an id the analyst wrote may come back.
      if (!hostile.sql.includes(other.projectId)) expect(res.text, hostile.name).not.toContain(other.projectId);
    }
  });
});

describe('infrastructure failure', () => {
  it('ClickHouse unreachable → 500 with Retry-After, never a 400', async () => {
    const down = await startApi({ env: { FRAMEDECK_CLICKHOUSE_URL: 'http://127.0.0.1:1' } });
    try {
      const res = await down.request('/v1/query', {
        method: 'POST',
        key: tenant.keys.full!,
        json: { project_id: tenant.projectId, sql: 'SELECT count() FROM events' },
      });
      validator.expectProblem(res, 500);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.body.retryable).toBe(true);
      expect(res.body.detail).toMatch(/unavailable|unreachable/);
      expect(res.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    } finally {
      await down.close();
    }
  });
});
