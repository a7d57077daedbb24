import type { InsightGroupBy } from '@framedeck/analytics';
import { listContentEntries, listMaps, type Pool } from '@framedeck/postgres';

/** Which content-registry type names the values of a grouping column. */
export const CONTENT_TYPE_OF_GROUPING: Partial<Record<InsightGroupBy, string>> = {
  map_id: 'map',
  event_name: 'event',
  build_id: 'build',
  platform: 'platform',
};

/**
 * Display names for group values: the content registry's entry of the matching type; for
 * maps, the uploaded map's name when the registry has none. Time groupings have no labels.
 */
export async function labelGroups(
  pool: Pool,
  projectId: string,
  groupBy: InsightGroupBy,
  groups: readonly string[],
): Promise<Map<string, string>> {
  const type = CONTENT_TYPE_OF_GROUPING[groupBy];
  const labels = new Map<string, string>();
  if (!type || groups.length === 0) return labels;
  if (groupBy === 'map_id') {
    for (const map of await listMaps(pool, projectId)) labels.set(map.mapId, map.name);
  }
  for (const entry of await listContentEntries(pool, projectId, { type, keys: groups })) {
    labels.set(entry.key, entry.displayName);
  }
  return labels;
}
