import { z } from 'zod';
import { getMap, getMapByInternalId, type Pool } from '@framedeck/postgres';

/**
 * The map named by its user mapId, else by its internal id (a UUID, as the Framedash MCP
 * server sends it): a map whose own mapId is that text wins.
 */
export async function findMap(pool: Pool, projectId: string, mapId: string) {
  const byMapId = await getMap(pool, projectId, mapId);
  if (byMapId || !z.uuid().safeParse(mapId).success) return byMapId;
  return getMapByInternalId(pool, projectId, mapId);
}
