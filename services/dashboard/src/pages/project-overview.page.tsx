import { analyticsApi } from '../api/analytics.api';
import { projectsApi } from '../api/projects.api';
import { useSearchParam } from '../app/router';
import { ColumnChart } from '../charts/column-chart';
import { AsyncView } from '../components/async-view';
import { SelectField } from '../components/choice-controls';
import { formatNumber, formatPercent } from '../components/format';
import { PageHeader, Panel, StatTile } from '../components/page-header';
import { EmptyState } from '../components/status-views';
import { useApi } from '../hooks/use-api';
import { KpiTiles, RejectedByReason } from './project-status';

export function ProjectOverviewPage({ projectId }: { projectId: string }) {
  const status = useApi((signal) => projectsApi.status(projectId, signal), [projectId]);
  const [days, setDays] = useSearchParam('days', '30');
  const metrics = useApi(
    (signal) => analyticsApi.dashboard(projectId, { days: Number(days) }, signal),
    [projectId, days],
  );
  return (
    <>
      <PageHeader
        title={status.data?.name ?? 'Overview'}
        description="Ingestion health and key figures. Events show up here 20–30 seconds after they are accepted."
        actions={
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              status.reload();
              metrics.reload();
            }}
          >
            Refresh
          </button>
        }
      />
      <div className="stack-lg">
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
        <Panel
          title="Players and events"
          actions={
            <SelectField
              label="Period"
              value={days}
              options={['7', '14', '30', '90'].map((d) => ({ value: d, label: `Last ${d} days` }))}
              onChange={setDays}
            />
          }
        >
          <AsyncView resource={metrics} loadingLabel="Loading dashboard metrics…">
            {(m) => (
              <div className="stack">
                <div className="stat-grid">
                  <StatTile
                    label="DAU (today, UTC)"
                    value={formatNumber(m.dau)}
                    hint={`${formatNumber(m.avgDau)} on average`}
                  />
                  <StatTile label="MAU (30 days)" value={formatNumber(m.mau)} />
                  <StatTile label="Stickiness (DAU/MAU)" value={formatPercent(m.stickiness)} />
                  <StatTile label="Sessions" value={formatNumber(m.sessions)} />
                  <StatTile label="Events" value={formatNumber(m.events)} />
                </div>
                {m.daily.length === 0 ? (
                  <EmptyState title="No events in this period" />
                ) : (
                  <>
                    <div className="chart-legend" aria-hidden="true">
                      <span>
                        <span className="swatch" />
                        Players per day
                      </span>
                      <span>
                        <span className="swatch swatch-alt" />
                        Sessions per day
                      </span>
                    </div>
                    <ColumnChart
                      title="Players and sessions per day"
                      labels={m.daily.map((d) => d.date.slice(5))}
                      series={[
                        { name: 'Players', className: 'bar', values: m.daily.map((d) => d.players) },
                        { name: 'Sessions', className: 'bar-alt', values: m.daily.map((d) => d.sessions) },
                      ]}
                    />
                  </>
                )}
              </div>
            )}
          </AsyncView>
        </Panel>
      </div>
    </>
  );
}
