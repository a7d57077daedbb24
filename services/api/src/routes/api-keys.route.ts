import { z } from 'zod';
import { createApiKey } from '@framedeck/accounts';
import { KEY_PRESETS, type KeyPreset } from '@framedeck/auth';
import { deactivateKey, listKeysOfProject, type ApiKeyListing } from '@framedeck/postgres';
import { problems } from '@framedeck/problem';
import { ProjectPathParams } from '../http/common.schemas.js';
import type { Principal } from '../http/principal.js';
import { defineRoute } from '../http/route.js';

const PRESETS = Object.keys(KEY_PRESETS) as [KeyPreset, ...KeyPreset[]];

const ApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    preset: z.string(),
    scopes: z.array(z.string()),
    prefix: z.string().meta({ description: 'The first characters of the key, to tell keys apart.' }),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable().meta({ description: 'Updated at most once a minute.' }),
    deactivatedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ApiKey', description: 'Key metadata; the key value itself is never listed.' });

const KeyPathParams = ProjectPathParams.extend({ keyId: z.uuid().meta({ description: 'API key id.' }) });

/** Data-plane scopes: granted by owner-level credentials (data:admin) without holding them. */
const DATA_PLANE_SCOPES: readonly string[] = ['events:write', 'events:synthetic'];

/**
 * SECURITY: a credential may create or deactivate only keys whose scopes it holds itself, so a
 * Read & Write key can neither mint a Full key nor switch off a more powerful one. The one
 * exception: a credential holding data:admin (a Full key, a signed-in dashboard user) may also
 * manage ingest keys (events:write), which no control-plane credential holds — otherwise nobody
 * could rotate an ingest key. OAuth tokens never manage keys: a third-party app must not turn a
 * revocable, short-lived grant into a long-lived key.
 */
function assertCanManage(principal: Principal, scopes: readonly string[]): void {
  if (principal.credential.type === 'bearer') {
    throw problems.forbidden('OAuth tokens cannot manage API keys; use the dashboard or an API key.');
  }
  const held: readonly string[] = principal.scopes;
  const owner = held.includes('data:admin');
  const missing = scopes.filter((s) => !held.includes(s) && !(owner && DATA_PLANE_SCOPES.includes(s)));
  if (missing.length > 0) {
    throw problems.forbidden(
      `This credential cannot manage a key with scopes it does not hold: ${missing.join(', ')}.`,
    );
  }
}

function toApiKey(key: ApiKeyListing) {
  return {
    id: key.id,
    name: key.name,
    preset: key.preset,
    scopes: key.scopes,
    prefix: key.displayPrefix,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    deactivatedAt: key.deactivatedAt?.toISOString() ?? null,
  };
}

export const listApiKeysRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/keys',
  operationId: 'listApiKeys',
  summary: "List the project's API keys",
  description: 'Active and deactivated keys, newest first. Never the key values. Not for OAuth tokens.',
  tag: 'API keys',
  auth: { scope: 'resources:write' },
  project: 'path',
  request: { params: ProjectPathParams },
  response: { description: 'The keys.', data: z.array(ApiKeySchema) },
  handler: async ({ principal, projectId, services }) => {
    assertCanManage(principal, []);
    return (await listKeysOfProject(services.pool, projectId)).map(toApiKey);
  },
});

export const createApiKeyRoute = defineRoute({
  method: 'post',
  path: '/v1/projects/{id}/keys',
  operationId: 'createApiKey',
  summary: 'Create an API key from a preset',
  description:
    'Presets: ingest (events:write), read (analytics:read), readWrite (+ resources:write), full (+ data:admin), ' +
    'ci (events:write + events:synthetic: the CI key, whose events are all stored with source automated). ' +
    'The value is in this response only. A credential can create only keys whose scopes it holds ' +
    '(exception: data:admin holders may create ingest and CI keys); OAuth tokens cannot create keys. ' +
    "At the plan's active-key limit (Free: 2 per project) the answer is 403.",
  tag: 'API keys',
  auth: { scope: 'resources:write' },
  project: 'path',
  request: {
    params: ProjectPathParams,
    body: z.object({
      preset: z.enum(PRESETS),
      name: z.string().trim().min(1).max(100).optional(),
    }),
  },
  response: {
    status: 201,
    description: 'The new key, with its value (shown only this once).',
    data: z.object({ key: ApiKeySchema, value: z.string().meta({ description: 'The API key. Store it now.' }) }),
  },
  handler: async ({ principal, projectId, body, services }) => {
    assertCanManage(principal, KEY_PRESETS[body.preset]);
    const created = await createApiKey(services.pool, { projectId, preset: body.preset, name: body.name });
    return { key: toApiKey(created.key), value: created.rawKey };
  },
});

export const deactivateApiKeyRoute = defineRoute({
  method: 'delete',
  path: '/v1/projects/{id}/keys/{keyId}',
  operationId: 'deactivateApiKey',
  summary: 'Deactivate an API key',
  description: 'The key stops working (within seconds on every API instance). Deactivating twice is harmless.',
  tag: 'API keys',
  auth: { scope: 'resources:write' },
  project: 'path',
  request: { params: KeyPathParams },
  response: { description: 'The deactivated key.', data: ApiKeySchema },
  handler: async ({ principal, projectId, params, services }) => {
    const key = (await listKeysOfProject(services.pool, projectId)).find((k) => k.id === params.keyId);
    if (!key) throw problems.notFound('API key not found.');
    assertCanManage(principal, key.scopes);
    await deactivateKey(services.pool, projectId, key.id);
    services.apiKeys.forgetKey(key.id);
    const after = (await listKeysOfProject(services.pool, projectId)).find((k) => k.id === key.id)!;
    return toApiKey(after);
  },
});
