import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { hashApiKey } from '@framedeck/auth';
import { waitFor } from '../support/wait.js';
import { startApi, type TestApi } from './support/api-harness.js';
import { OpenApiValidator } from './support/openapi-validator.js';

let api: TestApi;
let validator: OpenApiValidator;
beforeAll(async () => {
  api = await startApi({ env: { FRAMEDECK_API_KEY_LAST_USED_FLUSH_MS: '200' } });
  validator = new OpenApiValidator(api.api.openApiDocument);
});
afterAll(() => api.close());

const keysPath = (t: BootstrapResult) => `/v1/projects/${t.projectId}/keys`;
const create = (t: BootstrapResult, key: string, preset: string, name?: string) =>
  api.request(keysPath(t), { key, method: 'POST', json: { preset, name } });

describe('create, list, deactivate', () => {
  it('shows the value once; lists never show it (or its hash)', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'pro' });
    const created = await create(t, t.keys.full!, 'readWrite', 'CI dashboard');
    expect(created.status).toBe(201);
    validator.expectDocumented(created, 'POST', '/v1/projects/{id}/keys');
    const value: string = created.body.data.value;
    expect(value).toMatch(/^fd_/);
    expect(created.body.data.key).toMatchObject({
      name: 'CI dashboard',
      preset: 'readWrite',
      scopes: ['analytics:read', 'resources:write'],
      prefix: value.slice(0, 11),
      lastUsedAt: null,
      deactivatedAt: null,
    });
    expect((await api.request('/v1/whoami', { key: value })).status).toBe(200); // it works

    const list = await api.request(keysPath(t), { key: t.keys.full });
    validator.expectDocumented(list, 'GET', '/v1/projects/{id}/keys');
    expect(list.body.data).toHaveLength(5);
    for (const secret of [value, ...Object.values(t.keys)]) expect(list.text).not.toContain(secret);
    expect(list.text).not.toContain(hashApiKey(value).toString('hex'));
    expect(list.text).not.toContain(hashApiKey(value).toString('base64'));
  });

  it('deactivation switches the key off and shows in the list; twice is harmless', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'pro' });
    const { id } = (await create(t, t.keys.full!, 'read')).body.data.key;
    const off = await api.request(`${keysPath(t)}/${id}`, { key: t.keys.full, method: 'DELETE' });
    validator.expectDocumented(off, 'DELETE', '/v1/projects/{id}/keys/{keyId}');
    expect(off.body.data.deactivatedAt).not.toBeNull();
    expect((await api.request(`${keysPath(t)}/${id}`, { key: t.keys.full, method: 'DELETE' })).status).toBe(200);
    validator.expectProblem(
      await api.request(`${keysPath(t)}/${crypto.randomUUID()}`, { key: t.keys.full, method: 'DELETE' }),
      404,
    );
  });

  it('records last use, batched', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'pro' });
    await api.request('/v1/projects', { key: t.keys.read });
    await waitFor(
      async () => {
        const list = await api.request(keysPath(t), { key: t.keys.full });
        return list.body.data.find((k: { preset: string }) => k.preset === 'read').lastUsedAt;
      },
      { timeoutMs: 5_000, what: 'lastUsedAt of the read key' },
    );
    const list = await api.request(keysPath(t), { key: t.keys.full });
    expect(list.body.data.find((k: { preset: string }) => k.preset === 'ingest').lastUsedAt).toBeNull();
  });
});

describe('plan limit', () => {
  it('Free: a third active key is a 403 authorization; after deactivating one, creation works', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'free' }); // ingest + full: at the limit
    const refused = await create(t, t.keys.full!, 'read');
    validator.expectProblem(refused, 403);
    expect(refused.body.error_category).toBe('authorization');
    expect(refused.body.detail).toMatch(/2 active API keys/);
    const list = await api.request(keysPath(t), { key: t.keys.full });
    const ingest = list.body.data.find((k: { preset: string }) => k.preset === 'ingest');
    await api.request(`${keysPath(t)}/${ingest.id}`, { key: t.keys.full, method: 'DELETE' });
    expect((await create(t, t.keys.full!, 'read')).status).toBe(201);
  });
});

describe('no privilege escalation', () => {
  it.each([
    ['readWrite', 'full', /data:admin/],
    ['readWrite', 'ingest', /events:write/],
    ['read', 'read', /resources:write/], // no key management at all
  ])('a %s key cannot create a %s key', async (holder, wanted, missing) => {
    const t = await bootstrapTenant(api.pool, { plan: 'pro' });
    const res = await create(t, t.keys[holder as 'readWrite']!, wanted);
    validator.expectProblem(res, 403);
    expect(res.body.detail).toMatch(missing);
    const list = await api.request(keysPath(t), { key: t.keys.full });
    expect(list.body.data).toHaveLength(4); // nothing was created
  });

  it('a read or ingest key cannot manage keys at all', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'pro' });
    for (const key of [t.keys.read!, t.keys.ingest!]) {
      validator.expectProblem(await create(t, key, 'read'), 403);
      validator.expectProblem(await api.request(keysPath(t), { key }), 403);
    }
  });

  it('a full key (owner level) may create and deactivate ingest keys', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'pro' });
    const created = await create(t, t.keys.full!, 'ingest');
    expect(created.status).toBe(201);
    const off = await api.request(`${keysPath(t)}/${created.body.data.key.id}`, { key: t.keys.full, method: 'DELETE' });
    expect(off.status).toBe(200);
  });

  it('a readWrite key can create keys within its scopes, but cannot switch off a more powerful one', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'pro' });
    expect((await create(t, t.keys.readWrite!, 'read')).status).toBe(201);
    const list = await api.request(keysPath(t), { key: t.keys.full });
    const full = list.body.data.find((k: { preset: string }) => k.preset === 'full');
    const res = await api.request(`${keysPath(t)}/${full.id}`, { key: t.keys.readWrite, method: 'DELETE' });
    validator.expectProblem(res, 403);
    expect((await api.request('/v1/whoami', { key: t.keys.full })).status).toBe(200);
  });

  it('an unknown preset or a scopes list in the body is rejected, not honoured', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'pro' });
    validator.expectProblem(await create(t, t.keys.readWrite!, 'admin'), 400);
    const sneaky = await api.request(keysPath(t), {
      key: t.keys.readWrite,
      method: 'POST',
      json: { preset: 'read', scopes: ['data:admin'] },
    });
    expect(sneaky.status).toBe(201);
    expect(sneaky.body.data.key.scopes).toEqual(['analytics:read']);
  });
});
