import type { GameMap } from '../api/api-types';

/** The map upload form's values before they are numbers, and the checks made before sending. */
export type BoundsDraft = Record<Extract<keyof GameMap, `world${string}`>, string>;

export const EMPTY_BOUNDS: BoundsDraft = {
  worldMinX: '',
  worldMinY: '',
  worldMaxX: '',
  worldMaxY: '',
  worldMinZ: '',
  worldMaxZ: '',
};

/** Checks the form before sending: the API checks again, but typos are cheaper to fix here. */
export function validateMapDraft(
  name: string,
  mapId: string,
  image: File | undefined,
  b: BoundsDraft,
): string | undefined {
  if (!name.trim()) return 'Give the map a name.';
  if (!mapId.trim()) return 'Give the map an identifier (the map_id your game sends).';
  if (mapId.length > 255) return 'The map identifier can have at most 255 characters.';
  if (!image) return 'Choose the map image.';
  const num = (v: string) => (v.trim() === '' ? NaN : Number(v));
  if (
    ['worldMinX', 'worldMinY', 'worldMaxX', 'worldMaxY'].some((k) => !Number.isFinite(num(b[k as keyof BoundsDraft])))
  ) {
    return 'Enter all four X/Y world bounds as numbers.';
  }
  if (num(b.worldMinX) >= num(b.worldMaxX)) return 'World min X must be below max X.';
  if (num(b.worldMinY) >= num(b.worldMaxY)) return 'World min Y must be below max Y.';
  const hasZ = b.worldMinZ.trim() !== '' || b.worldMaxZ.trim() !== '';
  if (hasZ && !(num(b.worldMinZ) < num(b.worldMaxZ))) return 'Give both Z bounds (min below max), or neither.';
  return undefined;
}
