import { z } from 'zod';
import { MapBoundsSchema } from '@framedeck/analytics';
import type { MapRecord } from '@framedeck/postgres';

/** The Map resource (spec: "Map"), shared by the maps routes and the data export. */
export const MapSchema = z
  .object({
    id: z.uuid().meta({ description: 'Internal primary key.' }),
    name: z.string(),
    mapId: z.string().meta({ description: 'User-specified map identifier (paths, heatmap query, events’ map_id).' }),
    imageUrl: z.string().meta({
      description:
        'URL path of the map image (same origin, same authentication as this API; content-addressed, so it ' +
        'changes when the image does).',
    }),
    ...MapBoundsSchema.shape,
    imageWidth: z.int().meta({ description: 'Read from the image itself.' }),
    imageHeight: z.int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Map' });

export function toMapResponse(map: MapRecord): z.input<typeof MapSchema> {
  return {
    id: map.id,
    name: map.name,
    mapId: map.mapId,
    imageUrl: `/api/v1/projects/${map.projectId}/map-images/${map.imageSha256}`,
    worldMinX: map.worldMinX,
    worldMinY: map.worldMinY,
    worldMaxX: map.worldMaxX,
    worldMaxY: map.worldMaxY,
    worldMinZ: map.worldMinZ,
    worldMaxZ: map.worldMaxZ,
    imageWidth: map.imageWidth,
    imageHeight: map.imageHeight,
    createdAt: map.createdAt.toISOString(),
    updatedAt: map.updatedAt.toISOString(),
  };
}
