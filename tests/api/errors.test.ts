import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { startApi, type ApiResponse, type TestApi } from './support/api-harness.js';
import { OpenApiValidator } from './support/openapi-validator.js';
import { WITH_PROBES } from './support/probe.route.js';

/** Nothing internal may reach a client: stack frames, SQL, host names, ports, driver codes. */
function expectNothingInternal(res: ApiResponse): void {
  for (const leak of [/\bat \//, /SELECT/i, /127\.0\.0\.1/, /localhost/, /\.internal/, /ECONNREFUSED/, /\.js:\d+/]) {
    expect(res.text).not.toMatch(leak);
  }
}

let api: TestApi;
let validator: OpenApiValidator;
let t: BootstrapResult;

beforeAll(async () => {
  api = await startApi({ routes: WITH_PROBES, env: { FRAMEDECK_API_JSON_BODY_LIMIT_BYTES: '1000' } });
  validator = new OpenApiValidator(api.api.openApiDocument);
  t = await bootstrapTenant(api.pool, { plan: 'pro' });
});
afterAll(() => api.close());

const post = (json: unknown, headers: Record<string, string> = {}, rawBody?: string) =>
  api.request('/v1/probe/body', {
    key: t.keys.full,
    method: 'POST',
    json: rawBody ? undefined : json,
    rawBody,
    headers,
  });

describe('every error is a documented problem+json', () => {
  it.each<[number, string, () => Promise<ApiResponse>]>([
    [400, 'validation', () => post({ project_id: 'x' })],
    [400, 'validation', () => post(undefined, { 'content-type': 'application/json' }, '{"project_id": ')],
    [400, 'validation', () => api.request('/v1/probe/fail?kind=nope', { key: t.keys.full })],
    [401, 'authentication', () => api.request('/v1/projects')],
    [403, 'authorization', () => api.request('/v1/probe/admin', { key: t.keys.readWrite })],
    [404, 'not_found', () => api.request('/v1/nothing/here', { key: t.keys.full })],
    [404, 'not_found', () => api.request('/v1/projects', { key: t.keys.full, method: 'PUT' })],
    [409, 'conflict', () => api.request('/v1/probe/fail?kind=conflict', { key: t.keys.full })],
    [413, 'payload', () => post({ project_id: t.projectId, note: 'x'.repeat(5_000) })],
    [415, 'payload', () => post(undefined, { 'content-type': 'text/plain' }, '{}')],
    [415, 'payload', () => post(undefined, { 'content-type': 'application/x-www-form-urlencoded' }, 'a=b')],
    [500, 'internal', () => api.request('/v1/probe/fail?kind=crash', { key: t.keys.full })],
  ])('%i %s', async (status, category, send) => {
    const res = await send();
    validator.expectProblem(res, status);
    expect(res.body).toMatchObject({ error_category: category, retryable: false, success: false });
    expect(res.body.error).toBe(res.body.detail);
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expectNothingInternal(res);
  });

  it('a 500 logs the cause for operators but tells the client nothing of it', async () => {
    const res = await api.request('/v1/probe/fail?kind=crash', { key: t.keys.full });
    expect(res.body.detail).toBe('An internal error occurred. It has been logged.');
    expect(api.logs.some((l) => l.includes('db-7.framedeck.internal'))).toBe(true);
  });
});

describe('backing services down → 503, retryable', () => {
  it('ClickHouse unreachable (project status)', async () => {
    const down = await startApi({ env: { FRAMEDECK_CLICKHOUSE_URL: 'http://127.0.0.1:1' } });
    try {
      const res = await down.request(`/v1/projects/${t.projectId}/status`, { key: t.keys.read });
      validator.expectProblem(res, 503);
      expect(res.body).toMatchObject({ error_category: 'internal', retryable: true, retry_after: 5 });
      expect(res.headers.get('retry-after')).toBe('5');
      expectNothingInternal(res);
    } finally {
      await down.close();
    }
  });

  it('Postgres unreachable (authentication itself), still with rate-limit headers', async () => {
    const down = await startApi({ env: { FRAMEDECK_POSTGRES_URL: 'postgres://postgres@127.0.0.1:1/framedeck_test' } });
    try {
      const res = await down.request('/v1/projects', { key: t.keys.read });
      validator.expectProblem(res, 503);
      expect(res.body.retryable).toBe(true);
      expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expectNothingInternal(res);
    } finally {
      await down.close();
    }
  });
});
