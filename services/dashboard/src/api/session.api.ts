import { http } from './http-client';

export type SessionUser = {
  email: string;
  tenantId: string;
  planId: string;
  /** What this user may do; the SQL console needs data:admin. */
  scopes: string[];
};

export type Session = { user: SessionUser; csrfToken: string };

// Dashboard sign-in sessions (httpOnly cookie + CSRF token), from the OAuth/accounts issue.
export const sessionApi = {
  current: (signal?: AbortSignal) => http.request<Session>('/v1/session', { signal }),
  signIn: (email: string, password: string) =>
    http.request<Session>('/v1/session', { method: 'POST', body: { email, password } }),
  signOut: () => http.request<unknown>('/v1/session', { method: 'DELETE' }),
};
