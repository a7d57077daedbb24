import type { ReactNode } from 'react';
import { ApiKeysPage } from '../pages/api-keys.page';
import { ProjectOverviewPage } from '../pages/project-overview.page';
import { ProjectsPage } from '../pages/projects.page';

export type RouteDef = {
  pattern: string;
  title: string;
  render: (params: Record<string, string>) => ReactNode;
};

const p = (params: Record<string, string>) => params.projectId!;

/** Every page of the dashboard; the sidebar lists the project-scoped ones in this order. */
export const PROJECT_ROUTES: RouteDef[] = [
  { pattern: '/projects/:projectId', title: 'Overview', render: (x) => <ProjectOverviewPage projectId={p(x)} /> },
  { pattern: '/projects/:projectId/keys', title: 'API keys', render: (x) => <ApiKeysPage projectId={p(x)} /> },
];

export const TOP_ROUTES: RouteDef[] = [{ pattern: '/projects', title: 'Projects', render: () => <ProjectsPage /> }];
