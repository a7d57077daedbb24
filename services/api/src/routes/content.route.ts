import { z } from 'zod';
import {
  deleteContentEntry,
  inTransaction,
  listContentEntries,
  upsertContentEntry,
  type ContentEntry,
} from '@framedeck/postgres';
import { problems } from '@framedeck/problem';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';

/** Metadata is for labels and small facts (rarity, chapter, colour), not for blobs. */
export const CONTENT_METADATA_MAX_BYTES = 16_384;
/** Entries one import may carry (all stored, or none). */
export const CONTENT_IMPORT_MAX_ENTRIES = 1_000;

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
    id: z.uuid().meta({ description: 'Stable id of the entry (DELETE ?id=).' }),
    type: z.string(),
    key: z.string(),
    displayName: z.string(),
    description: z.string().nullable(),
    category: z.string().nullable(),
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

const ContentListQuery = z.strictObject({ type: ContentType.optional() });

export const listContentRoute = defineRoute({
  method: 'get',
  path: '/v1/content',
  operationId: 'listContent',
  summary: 'List content entries',
  description: 'Entries of the project named by X-Project-Id, ordered by type then key.',
  tag: 'Content',
  auth: { scope: 'analytics:read' },
  project: 'header',
  request: { query: ContentListQuery },
  response: { description: 'The entries.', data: z.array(ContentEntrySchema) },
  handler: async ({ projectId, query, services }) =>
    (await listContentEntries(services.pool, projectId, { type: query.type })).map(toResponse),
});

export const listProjectContentRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/content',
  operationId: 'listProjectContent',
  summary: 'List content entries (project in the path)',
  description: 'The same list as GET /v1/content, for the project in the path (the Framedash MCP server reads it).',
  tag: 'Content',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: { params: ProjectPathParams, query: ContentListQuery },
  response: { description: 'The entries.', data: z.array(ContentEntrySchema) },
  handler: async ({ projectId, query, services }) =>
    (await listContentEntries(services.pool, projectId, { type: query.type })).map(toResponse),
});

const ContentEntryBody = z.strictObject({
  type: ContentType,
  key: ContentKey,
  displayName: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable().optional(),
  category: z.string().trim().min(1).max(100).nullable().optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .nullable()
    .default({})
    .transform((m) => m ?? {})
    .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= CONTENT_METADATA_MAX_BYTES, {
      message: `at most ${CONTENT_METADATA_MAX_BYTES} bytes as JSON`,
    })
    .meta({ description: `A JSON object, at most ${CONTENT_METADATA_MAX_BYTES} bytes serialised (null = {}).` }),
});

const ContentImportBody = z.strictObject({
  entries: z
    .array(ContentEntryBody)
    .min(1)
    .max(CONTENT_IMPORT_MAX_ENTRIES)
    .refine((entries) => new Set(entries.map((e) => `${e.type}\u0000${e.key}`)).size === entries.length, {
      message: 'each (type, key) once',
    }),
});

/** The Framedash clients name the natural key contentType + contentId. */
const CONTENT_KEY_ALIASES = { contentType: 'type', contentId: 'key' };

export const upsertContentRoute = defineRoute({
  method: 'post',
  path: '/v1/content',
  operationId: 'upsertContent',
  summary: 'Create or update content entries',
  description:
    'One entry, or an import `{entries: [...]}` of up to ' +
    `${CONTENT_IMPORT_MAX_ENTRIES} entries stored together (all or none). Upsert by (type, key): an existing entry ` +
    'gets the new display name, description, category and metadata (replaced, not merged) and keeps its id.',
  tag: 'Content',
  auth: { scope: 'resources:write' },
  project: 'header',
  request: {
    body: z.union([ContentEntryBody, ContentImportBody]),
    aliases: {
      body: {
        ...CONTENT_KEY_ALIASES,
        ...Object.fromEntries(
          Object.entries(CONTENT_KEY_ALIASES).map(([alias, canonical]) => [
            `entries[].${alias}`,
            `entries[].${canonical}`,
          ]),
        ),
      },
    },
  },
  response: {
    description: 'One entry: the stored entry and whether it is new. An import: the stored entries and the counts.',
    data: z.union([
      z.object({ entry: ContentEntrySchema, created: z.boolean() }),
      z.object({ entries: z.array(ContentEntrySchema), created: z.int(), updated: z.int() }),
    ]),
  },
  handler: async ({ projectId, body, services }) => {
    if (!('entries' in body)) {
      const { entry, created } = await upsertContentEntry(services.pool, projectId, body);
      return { entry: toResponse(entry), created };
    }
    const saved = await inTransaction(services.pool, async (tx) => {
      const out: Array<{ entry: ContentEntry; created: boolean }> = [];
      for (const entry of body.entries) out.push(await upsertContentEntry(tx, projectId, entry));
      return out;
    });
    const created = saved.filter((s) => s.created).length;
    return { entries: saved.map((s) => toResponse(s.entry)), created, updated: saved.length - created };
  },
});

export const deleteContentRoute = defineRoute({
  method: 'delete',
  path: '/v1/content',
  operationId: 'deleteContent',
  summary: 'Delete a content entry',
  description: 'Name the entry by its id, or by type and key (not both).',
  tag: 'Content',
  auth: { scope: 'resources:write' },
  project: 'header',
  request: {
    query: z
      .strictObject({ id: z.uuid().optional(), type: ContentType.optional(), key: ContentKey.optional() })
      .refine((q) => (q.id !== undefined) !== (q.type !== undefined && q.key !== undefined), {
        message: 'give id, or type and key',
      })
      .refine((q) => q.id === undefined || (q.type === undefined && q.key === undefined), {
        message: 'give id, or type and key, not both',
      }),
    aliases: { query: CONTENT_KEY_ALIASES },
  },
  response: { description: 'The deleted entry.', data: ContentEntrySchema },
  handler: async ({ projectId, query, services }) => {
    const which = query.id !== undefined ? { id: query.id } : { type: query.type!, key: query.key! };
    const deleted = await deleteContentEntry(services.pool, projectId, which);
    if (!deleted) throw problems.notFound('Content entry not found.');
    return toResponse(deleted);
  },
});
