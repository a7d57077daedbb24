import { http } from './http-client';

export type Project = { id: string; name: string; createdAt: string };

/** GET /v1/projects/{id}/status: project details, KPIs and rejected events by reason. */
export type ProjectStatus = {
  id: string;
  name: string;
  createdAt: string;
  tenantId: string;
  planId: string;
  events: { last24h: number; last7d: number; lastEventAt: string | null };
  activePlayers24h: number;
  activeSessions24h: number;
  /** Discarded after their batch was accepted; counted per UTC day since `since`. */
  rejectedEvents: { since: string; total: number; byReason: { reason: string; count: number }[] };
  maps: number;
  activeKeys: number;
};

export const projectsApi = {
  list: (signal?: AbortSignal) => http.request<Project[]>('/v1/projects', { signal }),
  status: (projectId: string, signal?: AbortSignal) =>
    http.request<ProjectStatus>(`/v1/projects/${enc(projectId)}/status`, { signal }),
};

export const enc = encodeURIComponent;
