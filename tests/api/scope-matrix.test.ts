import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, createApiKey, type BootstrapResult } from '@framedeck/accounts';
import { KEY_PRESETS, type KeyPreset, type Scope } from '@framedeck/auth';
import { startApi, type ApiResponse, type RequestOptions, type TestApi } from './support/api-harness.js';
import { OpenApiValidator } from './support/openapi-validator.js';

/**
 * One row per operation: what to send and the scope it needs (null: any valid key). Adding an
 * endpoint? Add its row — the last test fails for any documented operation without one.
 */
type MatrixRow = {
  operationId: string;
  method: string;
  /** OpenAPI path template (for the document) */
  path: string;
  scope: Scope | null;
  /** Builds the request for a tenant (may create what the call needs, e.g. a key to deactivate). */
  request: (t: BootstrapResult, api: TestApi) => Promise<{ url: string } & RequestOptions>;
};

const MATRIX: MatrixRow[] = [
  {
    operationId: 'whoami',
    method: 'GET',
    path: '/v1/whoami',
    scope: null,
    request: async () => ({ url: '/v1/whoami' }),
  },
  {
    operationId: 'listProjects',
    method: 'GET',
    path: '/v1/projects',
    scope: 'analytics:read',
    request: async () => ({ url: '/v1/projects' }),
  },
  {
    operationId: 'getProjectStatus',
    method: 'GET',
    path: '/v1/projects/{id}/status',
    scope: 'analytics:read',
    request: async (t) => ({ url: `/v1/projects/${t.projectId}/status` }),
  },
  {
    operationId: 'listApiKeys',
    method: 'GET',
    path: '/v1/projects/{id}/keys',
    scope: 'resources:write',
    request: async (t) => ({ url: `/v1/projects/${t.projectId}/keys` }),
  },
  {
    operationId: 'createApiKey',
    method: 'POST',
    path: '/v1/projects/{id}/keys',
    scope: 'resources:write',
    request: async (t) => ({ url: `/v1/projects/${t.projectId}/keys`, method: 'POST', json: { preset: 'read' } }),
  },
  {
    operationId: 'deactivateApiKey',
    method: 'DELETE',
    path: '/v1/projects/{id}/keys/{keyId}',
    scope: 'resources:write',
    request: async (t, api) => {
      const { key } = await createApiKey(api.pool, { projectId: t.projectId, preset: 'read' });
      return { url: `/v1/projects/${t.projectId}/keys/${key.id}`, method: 'DELETE' };
    },
  },
];

const PRESETS = Object.keys(KEY_PRESETS) as KeyPreset[];

let api: TestApi;
let tenant: BootstrapResult;
let validator: OpenApiValidator;

beforeAll(async () => {
  api = await startApi();
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' }); // Pro: one key per preset
  validator = new OpenApiValidator(api.api.openApiDocument);
});
afterAll(() => api.close());

describe.each(MATRIX)('$method $path needs $scope', (row) => {
  it.each(PRESETS)('preset %s', async (preset) => {
    const { url, ...init } = await row.request(tenant, api);
    const res: ApiResponse = await api.request(url, { ...init, key: tenant.keys[preset]! });
    const allowed = row.scope === null || (KEY_PRESETS[preset] as readonly Scope[]).includes(row.scope);
    if (allowed) expect(res.status, res.text).toBeLessThan(300);
    else {
      validator.expectProblem(res, 403);
      expect(res.body.detail).toContain(row.scope);
    }
    validator.expectDocumented(res, row.method, row.path);
  });

  it('is documented with the same scope', () => {
    const operation = api.api.openApiDocument.paths?.[row.path]?.[row.method.toLowerCase() as 'get'];
    expect(operation?.operationId).toBe(row.operationId);
    expect(operation?.['x-required-scope']).toBe(row.scope ?? 'any');
  });
});

it('every documented operation has a row in this matrix', () => {
  const documented = Object.values(api.api.openApiDocument.paths ?? {}).flatMap((item) =>
    Object.values(item as Record<string, { operationId?: string }>).map((op) => op.operationId),
  );
  expect(documented.sort()).toEqual(MATRIX.map((r) => r.operationId).sort());
});
