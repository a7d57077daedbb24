import { z } from 'zod';
import { deleteContentEntry, listContentEntries, upsertContentEntry, type ContentEntry } from '@framedeck/postgres';
import { problems } from '@framedeck/problem';
import { defineRoute } from '../http/route.js';

/** Metadata is for labels and small facts (rarity, chapter, colour), not for blobs. */
export const CONTENT_METADATA_MAX_BYTES = 16_384;

const ContentType = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/)
  .meta({
    description:
      'Lower-case identifier (a-z, 0-9, _; up to 64). Types map, event, build and platform label the insights groups ' +
      'map_id, event_name, build_id and platform; any other type is yours (item, quest, …).',
  });
const ContentKey = z
  .string()
  .min(1)
  .max(255)
  .meta({ description: 'The value as it appears in events (e.g. a map_id).' });

const ContentEntrySchema = z
  .object({
    type: z.string(),
    key: z.string(),
    displayName: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ContentEntry' });

const toResponse = (e: ContentEntry) => ({
  ...e,
  createdAt: e.createdAt.toISOString(),
  updatedAt: e.updatedAt.toISOString(),
});

export const listContentRoute = defineRoute({
  method: 'get',
  path: '/v1/content',
  operationId: 'listContent',
  summary: 'List content entries',
  description: 'Entries of the project named by X-Project-Id, ordered by type then key.',
  tag: 'Content',
  auth: { scope: 'analytics:read' },
  project: 'header',
  request: { query: z.strictObject({ type: ContentType.optional() }) },
  response: { description: 'The entries.', data: z.array(ContentEntrySchema) },
  handler: async ({ projectId, query, services }) =>
    (await listContentEntries(services.pool, projectId, { type: query.type })).map(toResponse),
});

const ContentBody = z.strictObject({
  type: ContentType,
  key: ContentKey,
  displayName: z.string().trim().min(1).max(200),
  metadata: z
    .record(z.string(), z.unknown())
    .default({})
    .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= CONTENT_METADATA_MAX_BYTES, {
      message: `at most ${CONTENT_METADATA_MAX_BYTES} bytes as JSON`,
    })
    .meta({ description: `A JSON object, at most ${CONTENT_METADATA_MAX_BYTES} bytes serialised.` }),
});

export const upsertContentRoute = defineRoute({
  method: 'post',
  path: '/v1/content',
  operationId: 'upsertContent',
  summary: 'Create or update a content entry',
  description:
    'Upsert by (type, key): an existing entry gets the new display name and metadata (replaced, not merged).',
  tag: 'Content',
  auth: { scope: 'resources:write' },
  project: 'header',
  request: { body: ContentBody },
  response: {
    description: 'The stored entry; created tells whether it is new.',
    data: z.object({ entry: ContentEntrySchema, created: z.boolean() }),
  },
  handler: async ({ projectId, body, services }) => {
    const { entry, created } = await upsertContentEntry(services.pool, projectId, body);
    return { entry: toResponse(entry), created };
  },
});

export const deleteContentRoute = defineRoute({
  method: 'delete',
  path: '/v1/content',
  operationId: 'deleteContent',
  summary: 'Delete a content entry',
  tag: 'Content',
  auth: { scope: 'resources:write' },
  project: 'header',
  request: { query: z.strictObject({ type: ContentType, key: ContentKey }) },
  response: { description: 'The deleted entry’s type and key.', data: z.object({ type: z.string(), key: z.string() }) },
  handler: async ({ projectId, query, services }) => {
    if (!(await deleteContentEntry(services.pool, projectId, query.type, query.key))) {
      throw problems.notFound('Content entry not found.');
    }
    return { type: query.type, key: query.key };
  },
});
