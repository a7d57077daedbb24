import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { getProjectRetentionDays } from '@framedeck/postgres';
import { startApi, type TestApi } from './support/api-harness.js';
import { OpenApiValidator } from './support/openapi-validator.js';

// PATCH /v1/projects/{id}: a project's raw-event retention (issue #15), from the attacker's side.
let api: TestApi;
let validator: OpenApiValidator;
let mine: BootstrapResult;
let theirs: BootstrapResult;

beforeAll(async () => {
  api = await startApi();
  validator = new OpenApiValidator(api.api.openApiDocument);
  [mine, theirs] = await Promise.all([
    bootstrapTenant(api.pool, { plan: 'pro' }),
    bootstrapTenant(api.pool, { plan: 'pro' }),
  ]);
});
afterAll(() => api.close());

const patch = (projectId: string, key: string, json: unknown) =>
  api.request(`/v1/projects/${projectId}`, { method: 'PATCH', key, json });

describe("a project's retention", () => {
  it('is set with a data:admin key, shows in the status window, and null returns to the plan’s', async () => {
    const res = await patch(mine.projectId, mine.keys.full!, { rawRetentionDays: 30 });
    expect(res.status, res.text).toBe(200);
    validator.expectDocumented(res, 'PATCH', '/v1/projects/{id}');
    expect(res.body.data).toMatchObject({
      id: mine.projectId,
      rawRetentionDays: 30,
      dataWindow: { retentionDays: 30 },
    });
    expect(await getProjectRetentionDays(api.pool, mine.projectId)).toBe(30);
    const status = await api.request(`/v1/projects/${mine.projectId}/status`, { key: mine.keys.read! });
    expect(status.body.data.dataWindow.retentionDays).toBe(30);

    const reset = await patch(mine.projectId, mine.keys.full!, { rawRetentionDays: null });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.data).toMatchObject({ rawRetentionDays: null, dataWindow: { retentionDays: 90 } }); // pro: 90
  });

  it("refuses another tenant's project (404), a key without data:admin (403) and a value outside the list (400)", async () => {
    const foreign = await patch(theirs.projectId, mine.keys.full!, { rawRetentionDays: 7 });
    expect(foreign.status, foreign.text).toBe(404);
    for (const key of [mine.keys.read!, mine.keys.readWrite!]) {
      const weak = await patch(mine.projectId, key, { rawRetentionDays: 7 });
      expect(weak.status, weak.text).toBe(403);
    }
    for (const rawRetentionDays of [45, 0, -7, 100_000, '7', 7.5]) {
      const bad = await patch(mine.projectId, mine.keys.full!, { rawRetentionDays });
      expect(bad.status, `${rawRetentionDays}: ${bad.text}`).toBe(400);
    }
    const unknownField = await patch(mine.projectId, mine.keys.full!, { rawRetentionDays: 7, name: 'renamed' });
    expect(unknownField.status, unknownField.text).toBe(400);
    // Nothing of the above changed anything.
    expect(await getProjectRetentionDays(api.pool, theirs.projectId)).toBe(90);
    expect(await getProjectRetentionDays(api.pool, mine.projectId)).toBe(90);
  });
});
