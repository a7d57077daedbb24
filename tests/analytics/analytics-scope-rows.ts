import type { BootstrapResult } from '@framedeck/accounts';
import type { Scope } from '@framedeck/auth';
import { createErasureJob, upsertContentEntry } from '@framedeck/postgres';
import { createTestMap } from '../alerts/support/alerts-fixtures.js';
import type { RequestOptions, TestApi } from '../api/support/api-harness.js';
import { DEFAULT_MAP_FIELDS } from './api-helpers.js';
import { pngImage } from './image-fixtures.js';

/** Rows of tests/api/scope-matrix.test.ts for the analytics, maps, content and data endpoints. */
export const ANALYTICS_SCOPE_ROWS: Array<{
  operationId: string;
  method: string;
  path: string;
  scope: Scope | null;
  request: (t: BootstrapResult, api: TestApi) => Promise<{ url: string } & RequestOptions>;
}> = [
  {
    operationId: 'uploadMap',
    method: 'POST',
    path: '/v1/maps/upload',
    scope: 'resources:write',
    request: async (t) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(DEFAULT_MAP_FIELDS)) form.append(name, String(value));
      form.append('file', new Blob([pngImage(2, 2)], { type: 'image/png' }), 'map.png');
      return { url: '/v1/maps/upload', method: 'POST', projectId: t.projectId, form };
    },
  },
  {
    operationId: 'listMaps',
    method: 'GET',
    path: '/v1/projects/{id}/maps',
    scope: 'analytics:read',
    request: async (t) => ({ url: `/v1/projects/${t.projectId}/maps` }),
  },
  {
    operationId: 'deleteMap',
    method: 'DELETE',
    path: '/v1/projects/{id}/maps/{mapId}',
    scope: 'resources:write',
    request: async (t, api) => {
      const map = await createTestMap(api.pool, t.projectId);
      return { url: `/v1/projects/${t.projectId}/maps/${map.mapId}`, method: 'DELETE' };
    },
  },
  {
    operationId: 'getMapImage',
    method: 'GET',
    path: '/v1/projects/{id}/map-images/{sha256}',
    scope: 'analytics:read',
    request: async (t, api) => {
      await createTestMap(api.pool, t.projectId);
      const { rows } = await api.pool.query<{ sha256: string }>('SELECT sha256 FROM map_images WHERE project_id = $1', [
        t.projectId,
      ]);
      return { url: `/v1/projects/${t.projectId}/map-images/${rows[0]!.sha256}` };
    },
  },
  ...(
    [
      ['getHeatmap', '/heatmap'],
      ['getWorstAreas', '/heatmap/worst-areas'],
    ] as const
  ).map(([operationId, suffix]) => ({
    operationId,
    method: 'GET',
    path: `/v1/projects/{id}${suffix}`,
    scope: 'analytics:read' as const,
    request: async (t: BootstrapResult, api: TestApi) => {
      const map = await createTestMap(api.pool, t.projectId);
      return { url: `/v1/projects/${t.projectId}${suffix}?mapId=${map.mapId}` };
    },
  })),
  ...(
    [
      ['getInsights', '/insights', '?metric=count&groupBy=day'],
      ['getDashboard', '/dashboard', ''],
      ['listBuilds', '/builds', ''],
      ['compareBuilds', '/builds/compare', '?base=a&target=b'],
      ['getRetention', '/retention', ''],
      ['getFunnel', '/funnels', '?steps=a&steps=b'],
    ] as const
  ).map(([operationId, suffix, query]) => ({
    operationId,
    method: 'GET',
    path: `/v1/projects/{id}${suffix}`,
    scope: 'analytics:read' as const,
    request: async (t: BootstrapResult) => ({ url: `/v1/projects/${t.projectId}${suffix}${query}` }),
  })),
  {
    operationId: 'listContent',
    method: 'GET',
    path: '/v1/content',
    scope: 'analytics:read',
    request: async (t) => ({ url: '/v1/content', projectId: t.projectId }),
  },
  {
    operationId: 'listProjectContent',
    method: 'GET',
    path: '/v1/projects/{id}/content',
    scope: 'analytics:read',
    request: async (t) => ({ url: `/v1/projects/${t.projectId}/content` }),
  },
  {
    operationId: 'upsertContent',
    method: 'POST',
    path: '/v1/content',
    scope: 'resources:write',
    request: async (t) => ({
      url: '/v1/content',
      method: 'POST',
      projectId: t.projectId,
      json: { type: 'map', key: 'arena', displayName: 'Arena' },
    }),
  },
  {
    operationId: 'deleteContent',
    method: 'DELETE',
    path: '/v1/content',
    scope: 'resources:write',
    request: async (t, api) => {
      await upsertContentEntry(api.pool, t.projectId, {
        type: 'item',
        key: 'sword',
        displayName: 'Sword',
        metadata: {},
      });
      return { url: '/v1/content?type=item&key=sword', method: 'DELETE', projectId: t.projectId };
    },
  },
  {
    operationId: 'exportData',
    method: 'GET',
    path: '/v1/data/export',
    scope: 'data:admin',
    request: async (t) => ({ url: '/v1/data/export?include=maps,content', projectId: t.projectId }),
  },
  {
    operationId: 'erasePlayerData',
    method: 'POST',
    path: '/v1/data/erase',
    scope: 'data:admin',
    request: async (t) => ({
      url: '/v1/data/erase',
      method: 'POST',
      projectId: t.projectId,
      json: { playerIds: ['nobody'] },
    }),
  },
  {
    operationId: 'getErasureJob',
    method: 'GET',
    path: '/v1/data/erase/{jobId}',
    scope: 'data:admin',
    request: async (t, api) => {
      const job = await createErasureJob(api.pool, t.projectId, ['nobody']);
      return { url: `/v1/data/erase/${job.id}`, projectId: t.projectId };
    },
  },
];
