import { projectsApi } from '../api/projects.api';
import { AsyncView } from '../components/async-view';
import { PageHeader, Panel } from '../components/page-header';
import { useApi } from '../hooks/use-api';
import { KpiTiles, RejectedByReason } from './project-status';

export function ProjectOverviewPage({ projectId }: { projectId: string }) {
  const status = useApi((signal) => projectsApi.status(projectId, signal), [projectId]);
  return (
    <>
      <PageHeader
        title={status.data?.project?.name ?? 'Overview'}
        description="Ingestion health and key figures. Events show up here 20–30 seconds after they are accepted."
        actions={
          <button type="button" className="button button-secondary" onClick={status.reload}>
            Refresh
          </button>
        }
      />
      <AsyncView resource={status} loadingLabel="Loading project status…">
        {(s) => (
          <div className="stack-lg">
            <KpiTiles status={s} />
            <Panel title="Rejected events by reason">
              <RejectedByReason status={s} />
            </Panel>
          </div>
        )}
      </AsyncView>
    </>
  );
}
