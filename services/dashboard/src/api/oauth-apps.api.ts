import { http } from './http-client';
import { enc } from './projects.api';

export type AuthorizedApp = {
  clientId: string;
  /** The name the app registered itself with (not verified). */
  clientName: string | null;
  redirectHosts: string[];
  scopes: string[];
  projects: { id: string; name: string }[];
  createdAt: string;
  lastUsedAt: string | null;
};

// Dashboard-session-only endpoints of the OAuth issue.
export const oauthAppsApi = {
  list: (signal?: AbortSignal) => http.request<AuthorizedApp[]>('/v1/account/authorized-apps', { signal }),
  revoke: (clientId: string) =>
    http.request<{ clientId: string; revoked: true }>(`/v1/account/authorized-apps/${enc(clientId)}`, {
      method: 'DELETE',
    }),
};
