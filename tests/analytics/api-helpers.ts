import type { MapBounds } from '@framedeck/analytics';
import type { TestApi } from '../api/support/api-harness.js';
import { pngImage } from './image-fixtures.js';

export type MapFields = Record<string, string | number>;

export const DEFAULT_MAP_FIELDS: MapFields = {
  name: 'Arena',
  mapId: 'arena',
  worldMinX: -100,
  worldMinY: 0,
  worldMaxX: 100,
  worldMaxY: 50,
};

/** The bounds of DEFAULT_MAP_FIELDS' map, as queries take them: an 8 × 2 grid of 25-unit cells. */
export const ARENA_BOUNDS: MapBounds = {
  worldMinX: -100,
  worldMinY: 0,
  worldMaxX: 100,
  worldMaxY: 50,
  worldMinZ: null,
  worldMaxZ: null,
};

/** POST /v1/maps/upload as multipart/form-data (what a browser form or curl -F sends). */
export async function uploadMap(
  api: Pick<TestApi, 'baseUrl'>,
  options: {
    key: string;
    projectId: string;
    fields?: MapFields;
    file?: { bytes: Buffer; type?: string; name?: string } | null;
  },
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? DEFAULT_MAP_FIELDS)) form.append(name, String(value));
  const file = options.file === undefined ? { bytes: pngImage(4, 2) } : options.file;
  if (file) form.append('file', new Blob([file.bytes], { type: file.type ?? 'image/png' }), file.name ?? 'map.png');
  const res = await fetch(`${api.baseUrl}/v1/maps/upload`, {
    method: 'POST',
    headers: { 'x-api-key': options.key, 'x-project-id': options.projectId },
    body: form,
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON; tests assert on it
  return { status: res.status, headers: res.headers, text, body: body as any };
}
