import { http } from './http-client';
import { enc } from './projects.api';

export type KeyPreset = 'ingest' | 'ci' | 'read' | 'readWrite' | 'full';

export type ApiKey = {
  id: string;
  name: string;
  preset: string;
  scopes: string[];
  /** The first characters of the key, to tell keys apart. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  deactivatedAt: string | null;
};

export type CreatedKey = { key: ApiKey; value: string };

export const KEY_PRESET_INFO: Record<KeyPreset, { label: string; scopes: string[]; use: string }> = {
  ingest: { label: 'Ingest', scopes: ['events:write'], use: 'Event ingestion from game SDKs only.' },
  ci: {
    label: 'CI (automated runs)',
    scopes: ['events:write', 'events:synthetic'],
    use: 'Automated QA runs (CI, test bots, soak tests): every event sent with it is stored as source automated.',
  },
  read: {
    label: 'Read-only',
    scopes: ['analytics:read'],
    use: 'Dashboards, status, analytics reads, command-line reads and tool integrations (no raw SQL).',
  },
  readWrite: {
    label: 'Read & Write',
    scopes: ['analytics:read', 'resources:write'],
    use: 'Reads plus changes to maps, content and alerts.',
  },
  full: {
    label: 'Full',
    scopes: ['analytics:read', 'resources:write', 'data:admin'],
    use: 'Raw SQL queries, data export and player deletion.',
  },
};

export const apiKeysApi = {
  list: (projectId: string, signal?: AbortSignal) =>
    http.request<ApiKey[]>(`/v1/projects/${enc(projectId)}/keys`, { signal }),
  create: (projectId: string, preset: KeyPreset, name: string | undefined) =>
    http.request<CreatedKey>(`/v1/projects/${enc(projectId)}/keys`, { method: 'POST', body: { preset, name } }),
  deactivate: (projectId: string, keyId: string) =>
    http.request<ApiKey>(`/v1/projects/${enc(projectId)}/keys/${enc(keyId)}`, { method: 'DELETE' }),
};
