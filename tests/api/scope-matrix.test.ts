import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, createApiKey, type BootstrapResult } from '@framedeck/accounts';
import { KEY_PRESETS, type KeyPreset, type Scope } from '@framedeck/auth';
import { insertAlertRule, insertNotificationChannel, insertThresholdProfile } from '@framedeck/postgres';
import { DEFAULT_THRESHOLD_PROFILE } from '@framedeck/alerts';
import { createTestMap, testRuleFields } from '../alerts/support/alerts-fixtures.js';
import { ANALYTICS_SCOPE_ROWS } from '../analytics/analytics-scope-rows.js';
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
    operationId: 'updateProject',
    method: 'PATCH',
    path: '/v1/projects/{id}',
    scope: 'data:admin',
    request: async (t) => ({ url: `/v1/projects/${t.projectId}`, method: 'PATCH', json: { rawRetentionDays: 90 } }),
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
  // Alerts (tests/alerts covers their behaviour; these rows pin their scopes).
  {
    operationId: 'listAlertRules',
    method: 'GET',
    path: '/v1/projects/{id}/alerts',
    scope: 'analytics:read',
    request: async (t) => ({ url: `/v1/projects/${t.projectId}/alerts` }),
  },
  {
    operationId: 'createAlertRule',
    method: 'POST',
    path: '/v1/projects/{id}/alerts',
    scope: 'resources:write',
    request: async (t, api) => {
      const map = await createTestMap(api.pool, t.projectId);
      return {
        url: `/v1/projects/${t.projectId}/alerts`,
        method: 'POST',
        json: { name: 'fps', mapId: map.id, metric: 'fps', isActive: false },
      };
    },
  },
  {
    operationId: 'getAlertRule',
    method: 'GET',
    path: '/v1/projects/{id}/alerts/{alertId}',
    scope: 'analytics:read',
    request: async (t, api) => ({ url: `/v1/projects/${t.projectId}/alerts/${await matrixRule(t, api)}` }),
  },
  {
    operationId: 'updateAlertRule',
    method: 'PATCH',
    path: '/v1/projects/{id}/alerts/{alertId}',
    scope: 'resources:write',
    request: async (t, api) => ({
      url: `/v1/projects/${t.projectId}/alerts/${await matrixRule(t, api)}`,
      method: 'PATCH',
      json: { name: 'renamed' },
    }),
  },
  {
    operationId: 'disableAlertRule',
    method: 'DELETE',
    path: '/v1/projects/{id}/alerts/{alertId}',
    scope: 'resources:write',
    request: async (t, api) => ({
      url: `/v1/projects/${t.projectId}/alerts/${await matrixRule(t, api)}`,
      method: 'DELETE',
    }),
  },
  {
    operationId: 'listAlertHistory',
    method: 'GET',
    path: '/v1/projects/{id}/alerts/history',
    scope: 'analytics:read',
    request: async (t) => ({ url: `/v1/projects/${t.projectId}/alerts/history` }),
  },
  {
    operationId: 'listThresholdProfiles',
    method: 'GET',
    path: '/v1/projects/{id}/threshold-profiles',
    scope: 'analytics:read',
    request: async (t) => ({ url: `/v1/projects/${t.projectId}/threshold-profiles` }),
  },
  {
    operationId: 'createThresholdProfile',
    method: 'POST',
    path: '/v1/projects/{id}/threshold-profiles',
    scope: 'resources:write',
    request: async (t) => ({
      url: `/v1/projects/${t.projectId}/threshold-profiles`,
      method: 'POST',
      json: { name: `matrix ${randomUUID()}` },
    }),
  },
  {
    operationId: 'updateThresholdProfile',
    method: 'PATCH',
    path: '/v1/projects/{id}/threshold-profiles/{profileId}',
    scope: 'resources:write',
    request: async (t, api) => ({
      url: `/v1/projects/${t.projectId}/threshold-profiles/${await matrixProfile(t, api)}`,
      method: 'PATCH',
      json: { fps: { good: 61 } },
    }),
  },
  {
    operationId: 'deleteThresholdProfile',
    method: 'DELETE',
    path: '/v1/projects/{id}/threshold-profiles/{profileId}',
    scope: 'resources:write',
    request: async (t, api) => ({
      url: `/v1/projects/${t.projectId}/threshold-profiles/${await matrixProfile(t, api)}`,
      method: 'DELETE',
    }),
  },
  {
    operationId: 'listNotificationChannels',
    method: 'GET',
    path: '/v1/projects/{id}/notification-channels',
    scope: 'analytics:read',
    request: async (t) => ({ url: `/v1/projects/${t.projectId}/notification-channels` }),
  },
  {
    operationId: 'createNotificationChannel',
    method: 'POST',
    path: '/v1/projects/{id}/notification-channels',
    scope: 'resources:write',
    request: async (t) => ({
      url: `/v1/projects/${t.projectId}/notification-channels`,
      method: 'POST',
      json: { type: 'slack', name: 'qa', url: 'https://chat.example.com/hooks/1' },
    }),
  },
  {
    operationId: 'deleteNotificationChannel',
    method: 'DELETE',
    path: '/v1/projects/{id}/notification-channels/{channelId}',
    scope: 'resources:write',
    request: async (t, api) => {
      const channel = await insertNotificationChannel(api.pool, {
        projectId: t.projectId,
        name: 'temp',
        type: 'slack',
        url: 'https://chat.example.com/hooks/1',
        secret: null,
      });
      return { url: `/v1/projects/${t.projectId}/notification-channels/${channel.id}`, method: 'DELETE' };
    },
  },
  {
    operationId: 'runSqlQuery',
    method: 'POST',
    path: '/v1/query',
    scope: 'data:admin',
    request: async (t) => ({
      url: '/v1/query',
      method: 'POST',
      json: { project_id: t.projectId, sql: 'SELECT 1 FROM events' },
    }),
  },
  ...ANALYTICS_SCOPE_ROWS,
];

/** A disabled rule on a fresh map of the tenant's project, for the rule-id rows. */
async function matrixRule(t: BootstrapResult, api: TestApi): Promise<string> {
  const map = await createTestMap(api.pool, t.projectId);
  return insertAlertRule(api.pool, t.projectId, await testRuleFields(api.pool, t.projectId, map, { isActive: false }));
}

async function matrixProfile(t: BootstrapResult, api: TestApi): Promise<string> {
  const inserted = await insertThresholdProfile(api.pool, t.projectId, {
    ...DEFAULT_THRESHOLD_PROFILE,
    name: `matrix ${randomUUID()}`,
    platform: null,
    resolution: null,
    buildConfig: null,
    gpu: null,
    storage: null,
  });
  if (!('id' in inserted)) throw new Error(`profile not inserted: ${inserted.conflict}`);
  return inserted.id;
}

const PRESETS = Object.keys(KEY_PRESETS) as KeyPreset[];

let api: TestApi;
let tenant: BootstrapResult;
let validator: OpenApiValidator;

beforeAll(async () => {
  api = await startApi();
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' }); // Pro: one key per preset but ci
  // Bootstrap's key set is a fixed contract; the CI key (a data-plane preset) is created here.
  tenant.keys.ci = (await createApiKey(api.pool, { projectId: tenant.projectId, preset: 'ci' })).rawKey;
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
  // Operations on {base_url}: the ingest endpoint (its own server, key scope events:write) is the gateway's.
  const documented = Object.values(api.api.openApiDocument.paths ?? {})
    .filter((item) => !item.servers)
    .flatMap((item) => Object.values(item as Record<string, { operationId?: string }>).map((op) => op.operationId));
  expect(documented.sort()).toEqual(MATRIX.map((r) => r.operationId).sort());
});
