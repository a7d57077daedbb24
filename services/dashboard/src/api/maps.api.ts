import type { GameMap } from './api-types';
import type { operations } from './generated/openapi';
import { http } from './http-client';
import { enc } from './projects.api';

export type { GameMap } from './api-types';

/** The upload form's fields (the multipart body of POST /v1/maps/upload), with the image as a File. */
export type MapUpload = Omit<UploadFields, 'file' | 'imageWidth' | 'imageHeight'> & { image: File };
type UploadFields = NonNullable<operations['uploadMap']['requestBody']>['content']['multipart/form-data'];

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
