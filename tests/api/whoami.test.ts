import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, createApiKey } from '@framedeck/accounts';
import { startApi, type TestApi } from './support/api-harness.js';
import { OpenApiValidator } from './support/openapi-validator.js';

let api: TestApi;
let validator: OpenApiValidator;
beforeAll(async () => {
  api = await startApi();
  validator = new OpenApiValidator(api.api.openApiDocument);
});
afterAll(() => api.close());

describe('tiers', () => {
  it('full metadata for keys holding analytics:read, resources:write or data:admin', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'pro' });
    for (const preset of ['read', 'readWrite', 'full'] as const) {
      const res = await api.request('/v1/whoami', { key: t.keys[preset]! });
      expect(res.body.data).toEqual({
        projectId: t.projectId,
        projectName: t.projectName,
        tenantId: t.tenantId,
        planId: 'pro',
        scopes: expect.any(Array),
      });
      expect(Object.keys(res.body.data)).toHaveLength(5);
      validator.expectDocumented(res, 'GET', '/v1/whoami');
    }
  });

  it('only projectId and scopes for a data-plane key, never the key value', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'free' });
    const res = await api.request('/v1/whoami', { key: t.keys.ingest });
    expect(res.body).toEqual({ success: true, data: { projectId: t.projectId, scopes: ['events:write'] } });
    expect(res.text).not.toContain(t.keys.ingest!);
    validator.expectDocumented(res, 'GET', '/v1/whoami');
  });

  it('401 for a missing or deactivated key', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'pro' });
    validator.expectProblem(await api.request('/v1/whoami'), 401);
    const extra = await createApiKey(api.pool, { projectId: t.projectId, preset: 'ingest' });
    // Full keys (data:admin) may deactivate ingest keys.
    await api.request(`/v1/projects/${t.projectId}/keys/${extra.key.id}`, { key: t.keys.full, method: 'DELETE' });
    validator.expectProblem(await api.request('/v1/whoami', { key: extra.rawKey }), 401);
  });
});

describe('own quota', () => {
  it('60 per hour per tenant, not taken from the plan quota', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'free' });
    for (let i = 0; i < 60; i++) {
      const res = await api.request('/v1/whoami', { key: i % 2 ? t.keys.full : t.keys.ingest }); // one tenant, two keys
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(59 - i));
    }
    const limited = await api.request('/v1/whoami', { key: t.keys.full });
    validator.expectProblem(limited, 429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3_500);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');

    const plan = await api.request('/v1/projects', { key: t.keys.full });
    expect(plan.status).toBe(200);
    expect(plan.headers.get('x-ratelimit-limit')).toBe('100');
    expect(plan.headers.get('x-ratelimit-remaining')).toBe('99'); // the 61 whoami calls did not count

    const otherTenant = await bootstrapTenant(api.pool, { plan: 'free' });
    expect((await api.request('/v1/whoami', { key: otherTenant.keys.full })).status).toBe(200);
  });
});
