import { useState, type FormEvent } from 'react';
import { analyticsApi } from '../api/analytics.api';
import { useSearchParam } from '../app/router';
import { AsyncView } from '../components/async-view';
import { Segmented, SelectField } from '../components/choice-controls';
import { Field } from '../components/form-field';
import { formatNumber, formatPercent } from '../components/format';
import { PageHeader, Panel } from '../components/page-header';
import { EmptyState } from '../components/status-views';
import { AnalyticsFilterControls, SourceScope, useAnalyticsFilters } from '../filters/analytics-filters';
import { RejectedParamsNote } from '../filters/rejected-params-note';
import { useApi } from '../hooks/use-api';

const WINDOWS = [
  { value: '3600', label: '1 hour' },
  { value: '86400', label: '1 day' },
  { value: '604800', label: '7 days' },
];

/** Ordered steps (event names): how many players or sessions reach each one within the window. */
export function FunnelsPage({ projectId }: { projectId: string }) {
  const [steps, setSteps] = useSearchParam('steps', 'match_start,checkpoint_1,checkpoint_2,match_end');
  const [by, setBy] = useSearchParam('by', 'player');
  const [days, setDays] = useSearchParam('days', '30');
  const [windowSeconds, setWindow] = useSearchParam('window', '86400');
  const [draft, setDraft] = useState(steps.split(',').join('\n'));
  const stepList = steps.split(',').filter(Boolean);
  const filters = useAnalyticsFilters();

  const funnel = useApi(
    (signal) =>
      stepList.length < 2
        ? Promise.reject(new Error('A funnel needs at least two steps.'))
        : analyticsApi.funnels(
            projectId,
            { steps: stepList, by, days: Number(days), windowSeconds: Number(windowSeconds), ...filters.query },
            signal,
          ),
    [projectId, steps, by, days, windowSeconds, filters.query],
  );

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setSteps(
      draft
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean)
        .join(','),
    );
  };

  return (
    <>
      <PageHeader title="Funnels" description="Conversion through an ordered sequence of events." />
      <div className="funnel-layout">
        <Panel title="Steps">
          <form onSubmit={apply} className="stack" aria-label="Funnel steps">
            <Field label="Event names, one per line, in order" hint="2 to 10 steps.">
              <textarea
                rows={6}
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                spellCheck={false}
                className="sql-editor"
              />
            </Field>
            <button type="submit" className="button button-primary">
              Update funnel
            </button>
          </form>
        </Panel>
        <div>
          <div className="toolbar">
            <Segmented
              label="Count"
              value={by}
              options={[
                { value: 'player', label: 'Players' },
                { value: 'session', label: 'Sessions' },
              ]}
              onChange={setBy}
            />
            <SelectField label="Conversion window" value={windowSeconds} options={WINDOWS} onChange={setWindow} />
            <SelectField
              label="Period"
              value={days}
              options={['7', '14', '30', '90'].map((d) => ({ value: d, label: `Last ${d} days` }))}
              onChange={setDays}
            />
            <AnalyticsFilterControls projectId={projectId} filters={filters} />
          </div>
          <RejectedParamsNote rejected={filters.rejected} />
          <SourceScope filters={filters} />
          <AsyncView resource={funnel} loadingLabel="Computing the funnel…">
            {(f) =>
              f.steps[0]?.count ? (
                <Panel>
                  <ol className="funnel-steps">
                    {f.steps.map((s, i) => (
                      <li key={`${s.eventName}-${i}`} className="funnel-step">
                        <div>
                          <div className="funnel-name">
                            {i + 1}. <code>{s.eventName}</code>
                          </div>
                          {i > 0 && (
                            <div className="muted small">
                              {formatPercent(s.conversionFromPrevious)} of the previous step
                            </div>
                          )}
                        </div>
                        <div className="funnel-bar" aria-hidden="true">
                          <span style={{ width: `${Math.max(0.5, s.conversion * 100)}%` }} />
                        </div>
                        <div className="num">
                          <strong>{formatNumber(s.count)}</strong>{' '}
                          <span className="muted">({formatPercent(s.conversion)})</span>
                        </div>
                      </li>
                    ))}
                  </ol>
                </Panel>
              ) : (
                <EmptyState title="Nobody entered this funnel in the period">
                  Check the first step's event name.
                </EmptyState>
              )
            }
          </AsyncView>
        </div>
      </div>
    </>
  );
}
