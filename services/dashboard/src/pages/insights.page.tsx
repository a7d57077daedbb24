import { analyticsApi, type InsightGroupBy, type InsightMetric } from '../api/analytics.api';
import { useSearchParam } from '../app/router';
import { AsyncView } from '../components/async-view';
import { BarChart } from '../charts/bar-chart';
import { ColumnChart } from '../charts/column-chart';
import { Segmented, SelectField } from '../components/choice-controls';
import { DataTable } from '../components/data-table';
import { Field } from '../components/form-field';
import { formatNumber } from '../components/format';
import { PageHeader, Panel, StatTile } from '../components/page-header';
import { EmptyState } from '../components/status-views';
import { AnalyticsFilterControls, SourceScope, useAnalyticsFilters } from '../filters/analytics-filters';
import { RejectedParamsNote } from '../filters/rejected-params-note';
import { useApi } from '../hooks/use-api';
import { useDebounced } from '../hooks/use-debounced';

const GROUPS: { value: InsightGroupBy; label: string }[] = [
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
  { value: 'event_name', label: 'Event' },
  { value: 'map_id', label: 'Map' },
  { value: 'platform', label: 'Platform' },
  { value: 'build_id', label: 'Build' },
];
const TIME_GROUPS: InsightGroupBy[] = ['day', 'week', 'month'];

export function InsightsPage({ projectId }: { projectId: string }) {
  const [metric, setMetric] = useSearchParam('metric', 'count') as [InsightMetric, (v: string) => void];
  const [groupBy, setGroupBy] = useSearchParam('groupBy', 'day') as [InsightGroupBy, (v: string) => void];
  const [days, setDays] = useSearchParam('days', '30');
  const [limit, setLimit] = useSearchParam('limit', '20');
  const [eventName, setEventName] = useSearchParam('eventName', '');
  const event = useDebounced(eventName.trim(), 400);
  const filters = useAnalyticsFilters();

  const insights = useApi(
    (signal) =>
      analyticsApi.insights(
        projectId,
        {
          metric,
          groupBy,
          days: Number(days),
          limit: Number(limit),
          eventName: event || undefined,
          ...filters.query,
        },
        signal,
      ),
    [projectId, metric, groupBy, days, limit, event, filters.query],
  );
  const metricLabel = metric === 'count' ? 'Events' : 'Unique players';

  return (
    <>
      <PageHeader
        title="Insights"
        description="Event counts and unique players, over time or by map, platform, build or event."
      />
      <div className="toolbar" role="group" aria-label="Insight settings">
        <Segmented
          label="Metric"
          value={metric}
          options={[
            { value: 'count', label: 'Events' },
            { value: 'unique_players', label: 'Unique players' },
          ]}
          onChange={setMetric}
        />
        <SelectField label="Group by" value={groupBy} options={GROUPS} onChange={setGroupBy} />
        <SelectField
          label="Period"
          value={days}
          options={['7', '14', '30', '90'].map((d) => ({ value: d, label: `Last ${d} days` }))}
          onChange={setDays}
        />
        <SelectField
          label="Groups"
          value={limit}
          options={['10', '20', '50'].map((l) => ({ value: l, label: `Top ${l}` }))}
          onChange={setLimit}
        />
        <Field label="Event name (optional)">
          <input value={eventName} onChange={(e) => setEventName(e.target.value)} placeholder="all events" />
        </Field>
        <AnalyticsFilterControls projectId={projectId} filters={filters} />
      </div>
      <RejectedParamsNote rejected={filters.rejected} />
      <SourceScope filters={filters} />
      <AsyncView resource={insights} loadingLabel="Loading insights…">
        {(result) => (
          <div className="stack-lg">
            <div className="stat-grid">
              <StatTile label={`${metricLabel}, total`} value={formatNumber(result.total)} />
              <StatTile
                label="Groups"
                value={formatNumber(result.distinctGroups)}
                hint={result.distinctGroups > result.rows.length ? `top ${result.rows.length} shown` : undefined}
              />
            </div>
            {result.rows.length === 0 ? (
              <EmptyState title="No data in this period">Events appear 20–30 seconds after they are sent.</EmptyState>
            ) : (
              <Panel title={`${metricLabel} by ${GROUPS.find((g) => g.value === groupBy)!.label.toLowerCase()}`}>
                {TIME_GROUPS.includes(groupBy) ? (
                  <ColumnChart
                    title={`${metricLabel} per ${groupBy}`}
                    labels={result.rows.map((r) => r.group)}
                    series={[{ name: metricLabel, className: 'bar', values: result.rows.map((r) => r.value) }]}
                  />
                ) : (
                  <BarChart
                    title={`${metricLabel} by ${groupBy}`}
                    data={result.rows.map((r) => ({ label: r.label ?? r.group, value: r.value }))}
                  />
                )}
                <details className="chart-table">
                  <summary>Show the numbers</summary>
                  <DataTable
                    caption={`${metricLabel} by ${groupBy}`}
                    rows={result.rows}
                    rowKey={(r) => r.group}
                    columns={[
                      { header: 'Group', cell: (r) => (r.label ? `${r.label} (${r.group})` : r.group) },
                      { header: metricLabel, align: 'right', cell: (r) => formatNumber(r.value) },
                    ]}
                  />
                </details>
              </Panel>
            )}
          </div>
        )}
      </AsyncView>
    </>
  );
}
