import { useEffect } from 'react';
import { Loading } from '../components/status-views';
import { SignInPage } from '../pages/sign-in.page';
import { SessionProvider, useSession } from '../session/session-context';
import { AppShell } from './app-shell';
import { RouterProvider, useRouter } from './router';
import { safeNext } from './safe-next';

export function App() {
  return (
    <RouterProvider>
      <SessionProvider>
        <Gate />
      </SessionProvider>
    </RouterProvider>
  );
}

/** Signed out → the sign-in page (remembering where the user was going); signed in → the app. */
function Gate() {
  const session = useSession();
  const { pathname, search, navigate } = useRouter();

  useEffect(() => {
    if (session.status === 'signed-out' && pathname !== '/sign-in') {
      const next = pathname + (search.toString() ? `?${search}` : '');
      navigate(`/sign-in${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}`, { replace: true });
    }
    if (session.status === 'signed-in' && pathname === '/sign-in') {
      navigate(safeNext(search.get('next')), { replace: true });
    }
  }, [session.status, pathname, search, navigate]);

  if (session.status === 'checking') return <Loading label="Checking your session…" />;
  if (session.status === 'signed-out') return <SignInPage />;
  if (pathname === '/sign-in') return <Loading />;
  return <AppShell />;
}
