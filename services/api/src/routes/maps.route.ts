import { z } from 'zod';
import { deleteMap, getMapImage, inTransaction, listMaps, saveMapImage, upsertMap } from '@framedeck/postgres';
import { problems } from '@framedeck/problem';
import { ProjectPathParams } from '../http/common.schemas.js';
import { readMultipart } from '../http/multipart.js';
import { defineRoute } from '../http/route.js';
import { parseOr400 } from '../http/validate.js';
import { findMap } from '../maps/find-map.js';
import { MAP_IMAGE_MAX_BYTES, MAP_IMAGE_MAX_SIDE, readMapImage } from '../maps/map-image.js';
import { MapSchema, toMapResponse } from '../maps/map.schema.js';

/** A decimal number in a form field ("12", "-3.5", "1e3"); empty or non-finite is a 400. */
const WorldCoordinate = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z.number().meta({ description: 'World coordinate (finite number).' }),
);

/** A pixel count sent as a form field: accepted for the Framedash CLI, checked, not trusted. */
const ImageSide = z
  .string()
  .regex(/^[1-9]\d{0,5}$/)
  .meta({ description: 'Informational (the Framedash CLI sends it): the stored size is read from the image.' });

const MapUploadFields = z
  .strictObject({
    name: z.string().trim().min(1).max(200).meta({ description: 'Display name, 1 to 200 characters.' }),
    mapId: z
      .string()
      .min(1)
      .max(255)
      .meta({ description: 'Your map identifier, 1 to 255 characters; unique per project.' }),
    worldMinX: WorldCoordinate,
    worldMinY: WorldCoordinate,
    worldMaxX: WorldCoordinate,
    worldMaxY: WorldCoordinate,
    worldMinZ: WorldCoordinate.optional(),
    worldMaxZ: WorldCoordinate.optional(),
    // NOTE: the Framedash CLI (map-capture --upload) sends the size from its capture sidecar;
    // the stored size is always the one read from the image.
    imageWidth: ImageSide.optional(),
    imageHeight: ImageSide.optional(),
  })
  .refine((f) => f.worldMaxX > f.worldMinX && f.worldMaxY > f.worldMinY, {
    message: 'worldMaxX/worldMaxY must be greater than worldMinX/worldMinY',
  })
  .refine((f) => (f.worldMinZ === undefined) === (f.worldMaxZ === undefined), {
    message: 'give both worldMinZ and worldMaxZ, or neither',
  })
  .refine((f) => f.worldMinZ === undefined || f.worldMaxZ! > f.worldMinZ, {
    message: 'worldMaxZ must be greater than worldMinZ',
  });

export const uploadMapRoute = defineRoute({
  method: 'post',
  path: '/v1/maps/upload',
  operationId: 'uploadMap',
  summary: 'Upload a map (image and world bounds)',
  description:
    'multipart/form-data with the image as `file` (or `image`, as the Framedash CLI sends it) (PNG, JPEG or WebP, ' +
    'recognised by its content, at most ' +
    `${MAP_IMAGE_MAX_BYTES} bytes and ${MAP_IMAGE_MAX_SIDE} × ${MAP_IMAGE_MAX_SIDE} pixels, else 413 or 400) and the ` +
    'fields below. imageWidth/imageHeight are read from the image. ' +
    'Uploading an existing mapId replaces that map (same id and createdAt, new updatedAt) and answers 201 too. ' +
    'Images are stored once per project and content hash; deleting a map keeps its image. Besides the envelope, the ' +
    'answer carries `mapId` and `action` (created | updated) at the top level, as the Framedash CLI reads them.',
  tag: 'Maps',
  auth: { scope: 'resources:write' },
  project: 'header',
  request: {
    multipart: MapUploadFields.safeExtend({ file: z.string().meta({ format: 'binary' }) }),
  },
  response: {
    status: 201,
    description: 'The stored map (data), and at the top level mapId and action.',
    data: MapSchema,
    media: {
      'application/json': z.object({
        success: z.literal(true),
        data: MapSchema,
        mapId: z.string().meta({ description: 'The map identifier (as data.mapId).' }),
        action: z.enum(['created', 'updated']).meta({ description: 'Whether the mapId was new.' }),
      }),
    },
  },
  errors: [413, 415],
  handler: async ({ req, res, projectId, services }) => {
    const form = await readMultipart(req, { maxFileBytes: MAP_IMAGE_MAX_BYTES, fileFields: ['file', 'image'] });
    const fields = parseOr400(MapUploadFields, form.fields, 'form');
    if (!form.file) throw problems.badRequest('Invalid request: form.file: the map image is required.');
    const image = readMapImage(form.file.bytes);
    if ('error' in image) throw problems.badRequest(`Invalid request: form.${image.error}`);
    const map = await inTransaction(services.pool, async (tx) => {
      await saveMapImage(tx, { projectId, ...image });
      return upsertMap(tx, {
        projectId,
        mapId: fields.mapId,
        name: fields.name,
        imageSha256: image.sha256,
        worldMinX: fields.worldMinX,
        worldMinY: fields.worldMinY,
        worldMaxX: fields.worldMaxX,
        worldMaxY: fields.worldMaxY,
        worldMinZ: fields.worldMinZ ?? null,
        worldMaxZ: fields.worldMaxZ ?? null,
        imageWidth: image.width,
        imageHeight: image.height,
      });
    });
    const action = map.createdAt.getTime() === map.updatedAt.getTime() ? 'created' : 'updated';
    res.status(201).json({ success: true, data: toMapResponse(map), mapId: map.mapId, action });
  },
});

export const listMapsRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/maps',
  operationId: 'listMaps',
  summary: 'List the maps of a project, newest first',
  tag: 'Maps',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: { params: ProjectPathParams },
  response: { description: 'Maps ordered by creation date, newest first.', data: z.array(MapSchema) },
  handler: async ({ projectId, services }) => (await listMaps(services.pool, projectId)).map(toMapResponse),
});

const MapPathParams = ProjectPathParams.extend({
  mapId: z
    .string()
    .min(1)
    .max(255)
    .meta({
      description:
        "The user-specified map identifier. The map's internal id (Map.id, a UUID) is accepted too, as the Framedash " +
        "CLI's `maps delete` sends the id `maps list` shows; a map whose own mapId is that text wins.",
    }),
});

export const deleteMapRoute = defineRoute({
  method: 'delete',
  path: '/v1/projects/{id}/maps/{mapId}',
  operationId: 'deleteMap',
  summary: 'Delete a map record (its image is kept)',
  description: 'Removes only the database record; the image stays stored and reachable at its imageUrl.',
  tag: 'Maps',
  auth: { scope: 'resources:write' },
  project: 'path',
  request: { params: MapPathParams },
  response: { description: 'The deleted map’s user mapId.', data: z.object({ mapId: z.string() }) },
  handler: async ({ projectId, params, services }) => {
    const map = await findMap(services.pool, projectId, params.mapId);
    if (!map || !(await deleteMap(services.pool, projectId, map.mapId))) throw problems.notFound('Map not found.');
    return { mapId: map.mapId };
  },
});

export const mapImageRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/map-images/{sha256}',
  operationId: 'getMapImage',
  summary: 'A map image (the imageUrl of a map)',
  description: 'The stored bytes with their detected media type. Immutable: the path is the content hash.',
  tag: 'Maps',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: {
    params: ProjectPathParams.extend({
      sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .meta({ description: 'SHA-256 of the image, hex.' }),
    }),
  },
  response: {
    description: 'The image.',
    data: z.never(),
    media: Object.fromEntries(
      ['image/png', 'image/jpeg', 'image/webp'].map((type) => [type, z.string().meta({ format: 'binary' })]),
    ),
  },
  handler: async ({ projectId, params, res, services }) => {
    const image = await getMapImage(services.pool, projectId, params.sha256);
    if (!image) throw problems.notFound('Image not found.');
    res
      .status(200)
      .type(image.contentType)
      // private: the image is behind authentication; immutable: a new image gets a new path.
      .setHeader('Cache-Control', 'private, max-age=31536000, immutable')
      .setHeader('X-Content-Type-Options', 'nosniff')
      .send(image.bytes);
  },
});
