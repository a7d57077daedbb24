// The Rules tab of the alerts page: rules with their status, on/off, the form to add one and to
// edit one.
import { useState } from 'react';
import { ALERT_METRIC_LABELS, alertsApi, type AlertRule, type NotificationChannel } from '../api/alerts.api';
import { mapsApi } from '../api/maps.api';
import { Link } from '../app/router';
import { AsyncView } from '../components/async-view';
import { ConfirmButton } from '../components/confirm-button';
import { DataTable } from '../components/data-table';
import { formatNumber } from '../components/format';
import { Panel } from '../components/page-header';
import { EmptyState, ErrorNotice } from '../components/status-views';
import { useAction, useApi, type ApiResource } from '../hooks/use-api';
import { RuleForm } from './rule.form';

export function RulesTab({ projectId, channels }: { projectId: string; channels: ApiResource<NotificationChannel[]> }) {
  const rules = useApi((signal) => alertsApi.rules(projectId, signal), [projectId]);
  const maps = useApi((signal) => mapsApi.list(projectId, signal), [projectId]);
  const profiles = useApi((signal) => alertsApi.thresholdProfiles(projectId, signal), [projectId]);
  const [editing, setEditing] = useState<AlertRule | undefined>();
  const toggle = useAction((rule: AlertRule) => alertsApi.setActive(projectId, rule.id, !rule.isActive));
  const toggleRule = async (rule: AlertRule) => {
    if (await toggle.run(rule)) rules.reload();
  };

  return (
    <div className="stack-lg">
      <AsyncView resource={maps} loadingLabel="Loading maps…">
        {(mapList) =>
          mapList.length === 0 ? (
            <EmptyState title="Rules watch a map">
              <Link to={`/projects/${projectId}/maps`}>Upload a map</Link> first.
            </EmptyState>
          ) : (
            <AsyncView resource={profiles} loadingLabel="Loading threshold profiles…">
              {(profileList) => (
                <RuleForm
                  // A new form (fresh fields) for each rule edited, and for a new rule after an edit.
                  key={editing?.id ?? 'new'}
                  projectId={projectId}
                  maps={mapList}
                  profiles={profileList}
                  channels={channels.data ?? []}
                  rule={editing}
                  onSaved={() => {
                    setEditing(undefined);
                    rules.reload();
                  }}
                  onCancel={editing ? () => setEditing(undefined) : undefined}
                />
              )}
            </AsyncView>
          )
        }
      </AsyncView>
      <Panel title="Rules">
        {toggle.error && <ErrorNotice error={toggle.error} title="The rule was not changed" />}
        <AsyncView resource={rules} loadingLabel="Loading rules…">
          {(list) => (
            <DataTable
              caption="Alert rules"
              rows={list}
              rowKey={(r) => r.id}
              empty={<EmptyState title="No alert rules yet" />}
              columns={[
                {
                  header: 'Rule',
                  cell: (r) => (
                    <>
                      <div>{r.name}</div>
                      <div className="muted small">{r.mapName ?? 'deleted map'}</div>
                    </>
                  ),
                },
                {
                  header: 'Condition',
                  cell: (r) =>
                    `${ALERT_METRIC_LABELS[r.metric]} worse than “${r.thresholdLevel}” in ≥ ${r.failPercentage}% of ${r.cellSize}-unit cells, last ${r.evaluationDays} d`,
                },
                { header: 'Profile', cell: (r) => r.thresholdProfileName ?? '—' },
                { header: 'Channels', align: 'right', cell: (r) => formatNumber(r.channelIds.length) },
                { header: 'Status', cell: (r) => <RuleStatus rule={r} /> },
                {
                  header: 'Actions',
                  cell: (r) => (
                    <div className="form-inline">
                      <button
                        type="button"
                        className="button button-secondary"
                        onClick={() => setEditing(r)}
                        aria-label={`Edit ${r.name}`}
                      >
                        Edit
                      </button>
                      {r.isActive ? (
                        <ConfirmButton
                          label="Disable"
                          confirmLabel="Confirm disable"
                          accessibleName={`Disable ${r.name}`}
                          disabled={toggle.pending}
                          onConfirm={() => void toggleRule(r)}
                        />
                      ) : (
                        <button
                          type="button"
                          className="button button-secondary"
                          disabled={toggle.pending}
                          onClick={() => void toggleRule(r)}
                          aria-label={`Enable ${r.name}`}
                        >
                          Enable
                        </button>
                      )}
                    </div>
                  ),
                },
              ]}
            />
          )}
        </AsyncView>
      </Panel>
    </div>
  );
}

function RuleStatus({ rule }: { rule: AlertRule }) {
  if (!rule.isActive) return <span className="badge badge-muted">Disabled</span>;
  if (rule.latestStatus === 'triggered') return <span className="badge badge-bad">Triggered</span>;
  if (rule.latestStatus === 'resolved') return <span className="badge badge-good">OK</span>;
  return <span className="badge">Not evaluated yet</span>;
}
