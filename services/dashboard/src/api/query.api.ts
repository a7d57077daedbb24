import { http } from './http-client';

export type QueryResult = { rows: Record<string, unknown>[]; rowCount: number; [field: string]: unknown };

export const queryApi = {
  /** POST /v1/query: raw SQL over the project's events; needs data:admin. */
  run: (projectId: string, sql: string, limit: number, signal?: AbortSignal) =>
    http.request<QueryResult>('/v1/query', { method: 'POST', body: { project_id: projectId, sql, limit }, signal }),
};
