import type { AuthorizedApp } from './api-types';
import { http } from './http-client';
import { enc } from './projects.api';

export type { AuthorizedApp } from './api-types';

// Dashboard-session-only endpoints of the OAuth issue.
export const oauthAppsApi = {
  list: (signal?: AbortSignal) => http.request<AuthorizedApp[]>('/v1/account/authorized-apps', { signal }),
  revoke: (clientId: string) =>
    http.request<{ clientId: string; revoked: true }>(`/v1/account/authorized-apps/${enc(clientId)}`, {
      method: 'DELETE',
    }),
};
