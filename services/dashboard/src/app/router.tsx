import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type MouseEvent,
  type ReactNode,
} from 'react';

/**
 * A small History-API router: the dashboard has a dozen flat routes, which does not need a
 * routing library. Paths are real URLs (the API serves index.html for them), so reloads and
 * shared links work.
 */
type Location = { pathname: string; search: URLSearchParams };

type RouterValue = Location & { navigate: (to: string, options?: { replace?: boolean }) => void };

const RouterContext = createContext<RouterValue | undefined>(undefined);

function readLocation(): Location {
  return { pathname: window.location.pathname, search: new URLSearchParams(window.location.search) };
}

export function RouterProvider({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(readLocation);

  useEffect(() => {
    const onPop = () => setLocation(readLocation());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const navigate = useCallback((to: string, options: { replace?: boolean } = {}) => {
    if (to === window.location.pathname + window.location.search) return;
    if (options.replace) window.history.replaceState(null, '', to);
    else window.history.pushState(null, '', to);
    setLocation(readLocation());
    if (!options.replace) window.scrollTo(0, 0);
  }, []);

  const value = useMemo(() => ({ ...location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function useRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('useRouter outside RouterProvider');
  return value;
}

/** Reads and writes one query parameter (page state that belongs in the URL: shareable views). */
export function useSearchParam(name: string, fallback: string): [string, (value: string) => void] {
  const { search, pathname, navigate } = useRouter();
  const value = search.get(name) ?? fallback;
  const set = useCallback(
    (next: string) => {
      const params = new URLSearchParams(window.location.search);
      if (next === fallback) params.delete(name);
      else params.set(name, next);
      const qs = params.toString();
      navigate(pathname + (qs ? `?${qs}` : ''), { replace: true });
    },
    [name, fallback, pathname, navigate],
  );
  return [value, set];
}

type LinkProps = { to: string; children: ReactNode; className?: string; 'aria-current'?: 'page' | undefined };

/** An <a> that navigates without a reload (modifier clicks still open new tabs). */
export function Link({ to, children, ...rest }: LinkProps) {
  const { navigate } = useRouter();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    ) {
      return;
    }
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
