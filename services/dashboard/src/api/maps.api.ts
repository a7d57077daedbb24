import { http } from './http-client';
import { enc } from './projects.api';

export type GameMap = {
  id: string;
  name: string;
  mapId: string;
  imageUrl: string;
  worldMinX: number;
  worldMinY: number;
  worldMaxX: number;
  worldMaxY: number;
  worldMinZ: number | null;
  worldMaxZ: number | null;
  imageWidth: number;
  imageHeight: number;
  createdAt: string;
  updatedAt: string;
};

export type MapUpload = {
  name: string;
  mapId: string;
  image: File;
  worldMinX: number;
  worldMinY: number;
  worldMaxX: number;
  worldMaxY: number;
  worldMinZ?: number | undefined;
  worldMaxZ?: number | undefined;
};

export const mapsApi = {
  list: (projectId: string, signal?: AbortSignal) =>
    http.request<GameMap[]>(`/v1/projects/${enc(projectId)}/maps`, { signal }),
  /** POST /v1/maps/upload is not project-scoped: the project travels in X-Project-Id. */
  upload: (projectId: string, upload: MapUpload) => {
    const { image, ...fields } = upload;
    const form = new FormData();
    for (const [field, value] of Object.entries(fields)) if (value !== undefined) form.append(field, String(value));
    // NOTE: the file goes last, so a streaming parser has every field before the image bytes.
    form.append('file', image);
    return http.request<GameMap>('/v1/maps/upload', {
      method: 'POST',
      body: form,
      headers: { 'X-Project-Id': projectId },
    });
  },
  remove: (projectId: string, mapId: string) =>
    http.request<{ mapId: string }>(`/v1/projects/${enc(projectId)}/maps/${enc(mapId)}`, { method: 'DELETE' }),
};
