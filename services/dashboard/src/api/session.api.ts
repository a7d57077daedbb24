import type { Session } from './api-types';
import { http } from './http-client';

export type { Session, SessionUser } from './api-types';

// Dashboard sign-in sessions (httpOnly cookie + CSRF token), from the OAuth/accounts issue.
export const sessionApi = {
  current: (signal?: AbortSignal) => http.request<Session>('/v1/session', { signal }),
  signIn: (email: string, password: string) =>
    http.request<Session>('/v1/session', { method: 'POST', body: { email, password } }),
  signOut: () => http.request<unknown>('/v1/session', { method: 'DELETE' }),
};
