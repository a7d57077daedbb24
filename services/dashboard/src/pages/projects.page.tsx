import { projectsApi, type Project } from '../api/projects.api';
import { Link } from '../app/router';
import { AsyncView } from '../components/async-view';
import { formatDate } from '../components/format';
import { PageHeader } from '../components/page-header';
import { EmptyState } from '../components/status-views';
import { useApi } from '../hooks/use-api';
import { KpiTiles } from './project-status';

export function ProjectsPage() {
  const projects = useApi((signal) => projectsApi.list(signal), []);
  return (
    <>
      <PageHeader title="Projects" description="Every project of your studio, with its ingestion health." />
      <AsyncView resource={projects} loadingLabel="Loading projects…">
        {(list) =>
          list.length === 0 ? (
            <EmptyState title="No projects yet">
              Create one with <code>npx framedeck project create</code>.
            </EmptyState>
          ) : (
            <div className="card-list">
              {list.map((p) => (
                <ProjectCard key={p.id} project={p} />
              ))}
            </div>
          )
        }
      </AsyncView>
    </>
  );
}

function ProjectCard({ project }: { project: Project }) {
  const status = useApi((signal) => projectsApi.status(project.id, signal), [project.id]);
  return (
    <article className="panel project-card" aria-labelledby={`project-${project.id}`}>
      <div className="panel-header">
        <h2 id={`project-${project.id}`}>
          <Link to={`/projects/${project.id}`}>{project.name}</Link>
        </h2>
        <span className="muted small">Created {formatDate(project.createdAt)}</span>
      </div>
      <AsyncView resource={status} loadingLabel="Loading status…">
        {(s) => <KpiTiles status={s} compact />}
      </AsyncView>
    </article>
  );
}
