import type { ReactNode } from 'react';
import { AlertsPage } from '../pages/alerts.page';
import { ApiKeysPage } from '../pages/api-keys.page';
import { AuthorizedAppsPage } from '../pages/authorized-apps.page';
import { BuildsPage } from '../pages/builds.page';
import { FunnelsPage } from '../pages/funnels.page';
import { HeatmapPage } from '../pages/heatmap.page';
import { InsightsPage } from '../pages/insights.page';
import { MapsPage } from '../pages/maps.page';
import { ProjectOverviewPage } from '../pages/project-overview.page';
import { ProjectsPage } from '../pages/projects.page';
import { RetentionPage } from '../pages/retention.page';
import { SqlConsolePage } from '../pages/sql-console.page';

export type RouteDef = {
  pattern: string;
  title: string;
  render: (params: Record<string, string>) => ReactNode;
};

const p = (params: Record<string, string>) => params.projectId!;

/** Every project page, in sidebar order. */
export const PROJECT_ROUTES: RouteDef[] = [
  { pattern: '/projects/:projectId', title: 'Overview', render: (x) => <ProjectOverviewPage projectId={p(x)} /> },
  { pattern: '/projects/:projectId/heatmap', title: 'Heatmap', render: (x) => <HeatmapPage projectId={p(x)} /> },
  { pattern: '/projects/:projectId/insights', title: 'Insights', render: (x) => <InsightsPage projectId={p(x)} /> },
  { pattern: '/projects/:projectId/builds', title: 'Builds', render: (x) => <BuildsPage projectId={p(x)} /> },
  { pattern: '/projects/:projectId/retention', title: 'Retention', render: (x) => <RetentionPage projectId={p(x)} /> },
  { pattern: '/projects/:projectId/funnels', title: 'Funnels', render: (x) => <FunnelsPage projectId={p(x)} /> },
  { pattern: '/projects/:projectId/alerts', title: 'Alerts', render: (x) => <AlertsPage projectId={p(x)} /> },
  { pattern: '/projects/:projectId/maps', title: 'Maps', render: (x) => <MapsPage projectId={p(x)} /> },
  { pattern: '/projects/:projectId/keys', title: 'API keys', render: (x) => <ApiKeysPage projectId={p(x)} /> },
  { pattern: '/projects/:projectId/sql', title: 'SQL console', render: (x) => <SqlConsolePage projectId={p(x)} /> },
];

/** Pages outside a project, listed at the bottom of the sidebar. */
export const TOP_ROUTES: RouteDef[] = [
  { pattern: '/projects', title: 'Projects', render: () => <ProjectsPage /> },
  { pattern: '/settings/apps', title: 'Authorized apps', render: () => <AuthorizedAppsPage /> },
];
