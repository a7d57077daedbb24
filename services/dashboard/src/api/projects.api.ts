import { http } from './http-client';

export type Project = { id: string; name: string; createdAt: string };

/** GET /v1/projects/{id}/status: project details, KPIs and rejected events by reason. */
export type ProjectStatus = {
  project?: { id: string; name: string; createdAt?: string };
  kpis?: Record<string, number | string | null>;
  rejectedEvents?: { total?: number; byReason?: Record<string, number> | { reason: string; count: number }[] };
  [field: string]: unknown;
};

export const projectsApi = {
  list: (signal?: AbortSignal) => http.request<Project[]>('/v1/projects', { signal }),
  status: (projectId: string, signal?: AbortSignal) =>
    http.request<ProjectStatus>(`/v1/projects/${enc(projectId)}/status`, { signal }),
  dashboard: (projectId: string, signal?: AbortSignal) =>
    http.request<Record<string, unknown>>(`/v1/projects/${enc(projectId)}/dashboard`, { signal }),
};

export const enc = encodeURIComponent;
