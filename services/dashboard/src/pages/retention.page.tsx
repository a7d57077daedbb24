import { analyticsApi } from '../api/analytics.api';
import { useSearchParam } from '../app/router';
import { AsyncView } from '../components/async-view';
import { Segmented, SelectField } from '../components/choice-controls';
import { formatNumber, formatPercent } from '../components/format';
import { PageHeader, Panel } from '../components/page-header';
import { EmptyState } from '../components/status-views';
import { AnalyticsFilterControls, SourceScope, useAnalyticsFilters } from '../filters/analytics-filters';
import { RejectedParamsNote } from '../filters/rejected-params-note';
import { useApi } from '../hooks/use-api';

/** Cohorts (rows) by periods since first seen (columns), shaded by the share retained. */
export function RetentionPage({ projectId }: { projectId: string }) {
  const [period, setPeriod] = useSearchParam('period', 'day');
  const [days, setDays] = useSearchParam('days', '30');
  const filters = useAnalyticsFilters();
  const retention = useApi(
    (signal) => analyticsApi.retention(projectId, { period, days: Number(days), ...filters.query }, signal),
    [projectId, period, days, filters.query],
  );
  return (
    <>
      <PageHeader
        title="Retention"
        description="Of the players first seen in a period, how many came back N periods later."
      />
      <div className="toolbar">
        <Segmented
          label="Cohort period"
          value={period}
          options={[
            { value: 'day', label: 'Daily' },
            { value: 'week', label: 'Weekly' },
          ]}
          onChange={setPeriod}
        />
        <SelectField
          label="Cohorts from"
          value={days}
          options={['7', '14', '30', '90'].map((d) => ({ value: d, label: `Last ${d} days` }))}
          onChange={setDays}
        />
        <AnalyticsFilterControls projectId={projectId} filters={filters} />
      </div>
      <RejectedParamsNote rejected={filters.rejected} />
      <SourceScope filters={filters} />
      <AsyncView resource={retention} loadingLabel="Loading retention…">
        {(r) =>
          r.cohorts.length === 0 ? (
            <EmptyState title="No players in this period" />
          ) : (
            <Panel>
              <div className="table-wrap">
                <table className="table retention-grid">
                  <caption className="sr-only">Retention by {r.period} cohort</caption>
                  <thead>
                    <tr>
                      <th scope="col">Cohort</th>
                      <th scope="col" className="num">
                        Players
                      </th>
                      {Array.from({ length: r.k + 1 }, (_, n) => (
                        <th key={n} scope="col" className="num">
                          {r.period === 'day' ? 'Day' : 'Week'} {n}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {r.cohorts.map((c) => (
                      <tr key={c.cohort}>
                        <th scope="row">{c.cohort}</th>
                        <td className="num">{formatNumber(c.size)}</td>
                        {c.rates.map((rate, n) => (
                          <td
                            key={n}
                            className="cohort-cell"
                            style={
                              rate === null ? undefined : { background: `rgb(34 211 238 / ${0.08 + rate * 0.72})` }
                            }
                            title={
                              rate === null
                                ? 'not reached yet'
                                : `${formatNumber(c.retained[n] ?? 0)} of ${formatNumber(c.size)} players`
                            }
                          >
                            {rate === null ? '' : formatPercent(rate, 0)}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </Panel>
          )
        }
      </AsyncView>
    </>
  );
}
