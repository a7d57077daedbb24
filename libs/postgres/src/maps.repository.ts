import type { MapBounds } from '@framedeck/analytics';
import type { Queryable } from './queryable.js';

export type MapImageType = 'image/png' | 'image/jpeg' | 'image/webp';

export type MapRecord = MapBounds & {
  id: string;
  projectId: string;
  mapId: string;
  name: string;
  imageSha256: string;
  imageWidth: number;
  imageHeight: number;
  createdAt: Date;
  updatedAt: Date;
};

export type MapInput = Omit<MapRecord, 'id' | 'createdAt' | 'updatedAt'>;

const MAP_COLUMNS = `id, project_id AS "projectId", map_id AS "mapId", name, image_sha256 AS "imageSha256",
  world_min_x AS "worldMinX", world_min_y AS "worldMinY", world_max_x AS "worldMaxX", world_max_y AS "worldMaxY",
  world_min_z AS "worldMinZ", world_max_z AS "worldMaxZ", image_width AS "imageWidth", image_height AS "imageHeight",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Stores an image once per project and content hash (re-uploading the same bytes stores nothing). */
export async function saveMapImage(
  db: Queryable,
  image: { projectId: string; sha256: string; contentType: MapImageType; width: number; height: number; bytes: Buffer },
): Promise<void> {
  await db.query(
    `INSERT INTO map_images (project_id, sha256, content_type, width, height, bytes)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (project_id, sha256) DO NOTHING`,
    [image.projectId, image.sha256, image.contentType, image.width, image.height, image.bytes],
  );
}

/**
 * Creates the map, or replaces the one with the same mapId in the project: its id and
 * createdAt stay, everything else (image included) is replaced and updatedAt moves.
 */
export async function upsertMap(db: Queryable, map: MapInput): Promise<MapRecord> {
  const { rows } = await db.query<MapRecord>(
    `INSERT INTO maps (project_id, map_id, name, image_sha256, world_min_x, world_min_y, world_max_x, world_max_y,
                       world_min_z, world_max_z, image_width, image_height)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (project_id, map_id) DO UPDATE SET
       name = EXCLUDED.name, image_sha256 = EXCLUDED.image_sha256,
       world_min_x = EXCLUDED.world_min_x, world_min_y = EXCLUDED.world_min_y,
       world_max_x = EXCLUDED.world_max_x, world_max_y = EXCLUDED.world_max_y,
       world_min_z = EXCLUDED.world_min_z, world_max_z = EXCLUDED.world_max_z,
       image_width = EXCLUDED.image_width, image_height = EXCLUDED.image_height,
       updated_at = clock_timestamp()
     RETURNING ${MAP_COLUMNS}`,
    [
      map.projectId,
      map.mapId,
      map.name,
      map.imageSha256,
      map.worldMinX,
      map.worldMinY,
      map.worldMaxX,
      map.worldMaxY,
      map.worldMinZ,
      map.worldMaxZ,
      map.imageWidth,
      map.imageHeight,
    ],
  );
  return rows[0]!;
}

/** Newest first (spec); ties by id so pages are stable. */
export async function listMaps(db: Queryable, projectId: string): Promise<MapRecord[]> {
  const { rows } = await db.query<MapRecord>(
    `SELECT ${MAP_COLUMNS} FROM maps WHERE project_id = $1 ORDER BY created_at DESC, id`,
    [projectId],
  );
  return rows;
}

export async function getMap(db: Queryable, projectId: string, mapId: string): Promise<MapRecord | undefined> {
  const { rows } = await db.query<MapRecord>(`SELECT ${MAP_COLUMNS} FROM maps WHERE project_id = $1 AND map_id = $2`, [
    projectId,
    mapId,
  ]);
  return rows[0];
}

/** A map by its internal id (Map.id); undefined when it is not of the project (or not a map). */
export async function getMapByInternalId(db: Queryable, projectId: string, id: string): Promise<MapRecord | undefined> {
  const { rows } = await db.query<MapRecord>(`SELECT ${MAP_COLUMNS} FROM maps WHERE project_id = $1 AND id = $2`, [
    projectId,
    id,
  ]);
  return rows[0];
}

/** Removes the record only; the image stays in map_images. False when there was none. */
export async function deleteMap(db: Queryable, projectId: string, mapId: string): Promise<boolean> {
  const result = await db.query(`DELETE FROM maps WHERE project_id = $1 AND map_id = $2`, [projectId, mapId]);
  return result.rowCount === 1;
}

export async function getMapImage(
  db: Queryable,
  projectId: string,
  sha256: string,
): Promise<{ contentType: MapImageType; bytes: Buffer } | undefined> {
  const { rows } = await db.query<{ contentType: MapImageType; bytes: Buffer }>(
    `SELECT content_type AS "contentType", bytes FROM map_images WHERE project_id = $1 AND sha256 = $2`,
    [projectId, sha256],
  );
  return rows[0];
}
