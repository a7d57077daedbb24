import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { http } from '../api/http-client';
import { sessionApi, type Session, type SessionUser } from '../api/session.api';
import { toApiError } from '../hooks/use-api';
import type { ApiError } from '../api/api-error';

type SessionValue =
  | { status: 'checking'; user: undefined; error: undefined }
  | { status: 'signed-out'; user: undefined; error: ApiError | undefined }
  | { status: 'signed-in'; user: SessionUser; error: undefined };

type SessionContextValue = SessionValue & {
  signIn: (email: string, password: string) => Promise<void>;
  signOut: () => Promise<void>;
};

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

/**
 * The signed-in user. The session itself is an httpOnly cookie the page never sees; what the
 * page keeps is the user and the CSRF token the API hands out with the session.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionValue>({ status: 'checking', user: undefined, error: undefined });

  const adopt = useCallback((session: Session) => {
    http.setCsrfToken(session.csrfToken);
    setState({ status: 'signed-in', user: session.user, error: undefined });
  }, []);

  const drop = useCallback((error?: ApiError) => {
    http.setCsrfToken(undefined);
    setState({ status: 'signed-out', user: undefined, error });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    sessionApi.current(controller.signal).then(adopt, (error: unknown) => {
      if (controller.signal.aborted) return;
      const apiError = toApiError(error);
      // No session is the normal signed-out state, not an error worth showing.
      drop(apiError.status === 401 ? undefined : apiError);
    });
    http.onUnauthorized(() => drop());
    return () => {
      controller.abort();
      http.onUnauthorized(undefined);
    };
  }, [adopt, drop]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      adopt(await sessionApi.signIn(email, password));
    },
    [adopt],
  );

  const signOut = useCallback(async () => {
    try {
      await sessionApi.signOut();
    } finally {
      drop();
    }
  }, [drop]);

  const value = useMemo(() => ({ ...state, signIn, signOut }), [state, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
