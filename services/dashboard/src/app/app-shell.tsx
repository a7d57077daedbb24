import { useEffect, useState, type ReactNode } from 'react';
import { projectsApi } from '../api/projects.api';
import { ErrorNotice, Loading } from '../components/status-views';
import { useApi } from '../hooks/use-api';
import { useSession } from '../session/session-context';
import { matchPath } from './route-match';
import { Link, useRouter } from './router';
import { PROJECT_ROUTES, TOP_ROUTES, type RouteDef } from './routes';

/** Signed-in layout: sidebar (project switcher, pages), top bar (user), the page. */
export function AppShell() {
  const { pathname, navigate } = useRouter();
  const session = useSession();
  const projects = useApi((signal) => projectsApi.list(signal), []);

  const found = findRoute(pathname);
  const title = found?.route.title;
  // Pages outside a project (settings, the list) keep the project nav of the last project
  // visited, or of the first one, so the project pages stay one click away.
  const [lastProjectId, setLastProjectId] = useState<string | undefined>();
  const routeProjectId = found?.params.projectId;
  useEffect(() => {
    if (routeProjectId) setLastProjectId(routeProjectId);
  }, [routeProjectId]);
  const projectId = routeProjectId ?? lastProjectId ?? projects.data?.[0]?.id;

  useEffect(() => {
    document.title = title ? `${title} · FrameDeck` : 'FrameDeck';
  }, [title]);

  // "/" and unknown project-less paths land on the first project (or the list).
  useEffect(() => {
    if (pathname !== '/' || !projects.data) return;
    const first = projects.data[0];
    navigate(first ? `/projects/${first.id}` : '/projects', { replace: true });
  }, [pathname, projects.data, navigate]);

  const project = projects.data?.find((p) => p.id === projectId);

  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <aside className="sidebar" aria-label="Navigation">
        <Link to="/projects" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          FrameDeck
        </Link>
        {projects.data && projects.data.length > 0 && (
          <label className="project-switcher">
            <span className="sidebar-label">Project</span>
            <select
              value={projectId ?? ''}
              onChange={(e) => navigate(e.target.value ? `/projects/${e.target.value}` : '/projects')}
            >
              {projects.data.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {projectId && (
          <nav aria-label="Project">
            <ul className="nav-list">
              {PROJECT_ROUTES.map((route) => (
                <NavItem key={route.pattern} route={route} to={route.pattern.replace(':projectId', projectId)} />
              ))}
            </ul>
          </nav>
        )}
        <nav aria-label="Account" className="nav-bottom">
          <ul className="nav-list">
            {TOP_ROUTES.map((route) => (
              <NavItem key={route.pattern} route={route} to={route.pattern} />
            ))}
          </ul>
        </nav>
      </aside>
      <div className="main-column">
        <header className="topbar">
          <div className="topbar-context">{project?.name}</div>
          <div className="topbar-user">
            <span className="plan-badge">{session.user?.planId}</span>
            <span>{session.user?.email}</span>
            <button
              type="button"
              className="button button-ghost"
              onClick={() => {
                // A deliberate sign-out forgets the page: the next person starts from the top.
                void session.signOut().finally(() => navigate('/sign-in', { replace: true }));
              }}
            >
              Sign out
            </button>
          </div>
        </header>
        <main id="main" className="content" tabIndex={-1}>
          {projects.status === 'error' && !projects.data ? (
            <ErrorNotice error={projects.error} onRetry={projects.reload} />
          ) : pathname === '/' ? (
            <Loading label="Loading projects…" />
          ) : found ? (
            <PageFrame key={pathname}>{found.route.render(found.params)}</PageFrame>
          ) : (
            <NotFound />
          )}
        </main>
      </div>
    </div>
  );
}

function NavItem({ route, to }: { route: RouteDef; to: string }) {
  const { pathname } = useRouter();
  const current = pathname === to;
  return (
    <li>
      <Link to={to} className={current ? 'nav-link active' : 'nav-link'} aria-current={current ? 'page' : undefined}>
        {route.title}
      </Link>
    </li>
  );
}

function PageFrame({ children }: { children: ReactNode }) {
  return <div className="page">{children}</div>;
}

function NotFound() {
  return (
    <div className="page">
      <h1>Page not found</h1>
      <p>
        <Link to="/projects">Back to your projects</Link>
      </p>
    </div>
  );
}

function findRoute(pathname: string): { route: RouteDef; params: Record<string, string> } | undefined {
  for (const route of [...TOP_ROUTES, ...PROJECT_ROUTES]) {
    const params = matchPath(route.pattern, pathname);
    if (params) return { route, params };
  }
  return undefined;
}
