import { useState, type FormEvent } from 'react';
import {
  ALERT_METRIC_LABELS,
  alertsApi,
  type AlertHistoryEntry,
  type AlertMetric,
  type AlertRule,
  type NewAlertRule,
  type NewChannel,
  type NotificationChannel,
  type ThresholdLevel,
} from '../api/alerts.api';
import { CELL_SIZES, HEATMAP_DAYS } from '../api/heatmap.api';
import { mapsApi, type GameMap } from '../api/maps.api';
import { Link, useSearchParam } from '../app/router';
import { AsyncView } from '../components/async-view';
import { SelectField } from '../components/choice-controls';
import { ConfirmButton } from '../components/confirm-button';
import { DataTable } from '../components/data-table';
import { Field } from '../components/form-field';
import { formatDateTime, formatNumber, formatPercent } from '../components/format';
import { PageHeader, Panel } from '../components/page-header';
import { SecretReveal } from '../components/secret-reveal';
import { EmptyState, ErrorNotice } from '../components/status-views';
import { Tabs } from '../components/tabs';
import { useAction, useApi, type ApiResource } from '../hooks/use-api';

type Tab = 'rules' | 'history' | 'channels';

export function AlertsPage({ projectId }: { projectId: string }) {
  const [tab, setTab] = useSearchParam('tab', 'rules') as [Tab, (t: string) => void];
  const channels = useApi((signal) => alertsApi.channels(projectId, signal), [projectId]);
  return (
    <>
      <PageHeader
        title="Alerts"
        description="Get told when a map gets worse: a rule fails when enough heatmap cells cross a threshold profile's limit."
      />
      <Tabs
        label="Alerts"
        value={tab}
        onChange={setTab}
        tabs={[
          { value: 'rules', label: 'Rules', render: () => <RulesTab projectId={projectId} channels={channels} /> },
          { value: 'history', label: 'History', render: () => <HistoryTab projectId={projectId} /> },
          {
            value: 'channels',
            label: 'Channels',
            render: () => <ChannelsTab projectId={projectId} channels={channels} />,
          },
        ]}
      />
    </>
  );
}

function RulesTab({ projectId, channels }: { projectId: string; channels: ApiResource<NotificationChannel[]> }) {
  const rules = useApi((signal) => alertsApi.rules(projectId, signal), [projectId]);
  const maps = useApi((signal) => mapsApi.list(projectId, signal), [projectId]);
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
            <CreateRuleForm
              projectId={projectId}
              maps={mapList}
              channels={channels.data ?? []}
              onCreated={rules.reload}
            />
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
                  cell: (r) =>
                    r.isActive ? (
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

function CreateRuleForm({
  projectId,
  maps,
  channels,
  onCreated,
}: {
  projectId: string;
  maps: GameMap[];
  channels: NotificationChannel[];
  onCreated: () => void;
}) {
  const blank = (): NewAlertRule => ({
    name: '',
    mapId: maps[0]!.id,
    metric: 'fps',
    thresholdLevel: 'warn',
    failPercentage: 25,
    evaluationDays: 7,
    cellSize: 25,
    cooldownMinutes: 60,
    channelIds: [],
  });
  const [rule, setRule] = useState<NewAlertRule>(blank);
  const create = useAction((r: NewAlertRule) => alertsApi.create(projectId, r));
  const set = <K extends keyof NewAlertRule>(key: K, value: NewAlertRule[K]) =>
    setRule((r) => ({ ...r, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await create.run({ ...rule, name: rule.name.trim() })) {
      setRule(blank());
      onCreated();
    }
  };

  return (
    <Panel title="New rule">
      <form onSubmit={(e) => void submit(e)} className="stack" aria-label="New alert rule">
        <div className="form-grid">
          <Field label="Name">
            <input required maxLength={200} value={rule.name} onChange={(e) => set('name', e.target.value)} />
          </Field>
          <SelectField
            label="Map"
            value={rule.mapId}
            options={maps.map((m) => ({ value: m.id, label: m.name }))}
            onChange={(v) => set('mapId', v)}
          />
          <SelectField
            label="Metric"
            value={rule.metric}
            options={(Object.keys(ALERT_METRIC_LABELS) as AlertMetric[]).map((m) => ({
              value: m,
              label: ALERT_METRIC_LABELS[m],
            }))}
            onChange={(v) => set('metric', v)}
          />
          <SelectField
            label="A cell fails when worse than"
            value={rule.thresholdLevel}
            options={[
              { value: 'warn' as ThresholdLevel, label: 'the warn limit' },
              { value: 'good' as ThresholdLevel, label: 'the good limit' },
            ]}
            onChange={(v) => set('thresholdLevel', v)}
          />
          <Field label="Trigger at failing cells (%)">
            <input
              type="number"
              min={1}
              max={100}
              required
              value={rule.failPercentage}
              onChange={(e) => set('failPercentage', Number(e.target.value))}
            />
          </Field>
          <SelectField
            label="Evaluated period"
            value={rule.evaluationDays}
            options={HEATMAP_DAYS.map((d) => ({ value: d, label: `${d} day${d === 1 ? '' : 's'}` }))}
            onChange={(v) => set('evaluationDays', v)}
          />
          <SelectField
            label="Cell size"
            value={rule.cellSize}
            options={CELL_SIZES.map((c) => ({ value: c, label: `${c} units` }))}
            onChange={(v) => set('cellSize', v)}
          />
          <Field label="Cooldown (minutes)" hint="Least time between two notifications.">
            <input
              type="number"
              min={0}
              max={10080}
              required
              value={rule.cooldownMinutes}
              onChange={(e) => set('cooldownMinutes', Number(e.target.value))}
            />
          </Field>
        </div>
        {channels.length > 0 && (
          <fieldset>
            <legend>Notify</legend>
            <div className="checkbox-row">
              {channels.map((c) => (
                <label key={c.id} className="checkbox">
                  <input
                    type="checkbox"
                    checked={rule.channelIds.includes(c.id)}
                    onChange={(e) =>
                      set(
                        'channelIds',
                        e.target.checked ? [...rule.channelIds, c.id] : rule.channelIds.filter((id) => id !== c.id),
                      )
                    }
                  />
                  {c.name} <span className="muted small">({c.type})</span>
                </label>
              ))}
            </div>
          </fieldset>
        )}
        {create.error && <ErrorNotice error={create.error} title="The rule was not created" />}
        <button type="submit" className="button button-primary" disabled={create.pending}>
          {create.pending ? 'Creating…' : 'Create rule'}
        </button>
      </form>
    </Panel>
  );
}

function HistoryTab({ projectId }: { projectId: string }) {
  const first = useApi((signal) => alertsApi.history(projectId, { limit: 50 }, signal), [projectId]);
  const [more, setMore] = useState<AlertHistoryEntry[]>([]);
  const [cursor, setCursor] = useState<string | null | undefined>();
  const loadMore = useAction((c: string) => alertsApi.history(projectId, { limit: 50, cursor: c }));
  const nextCursor = cursor === undefined ? first.data?.nextCursor : cursor;

  const onMore = async () => {
    if (!nextCursor) return;
    const page = await loadMore.run(nextCursor);
    if (page) {
      setMore((m) => [...m, ...page.items]);
      setCursor(page.nextCursor);
    }
  };

  return (
    <Panel title="Evaluation history">
      <AsyncView resource={first} loadingLabel="Loading history…">
        {(page) => (
          <>
            <DataTable
              caption="Alert evaluations, newest first"
              rows={[...page.items, ...more]}
              rowKey={(h) => h.id}
              empty={<EmptyState title="No evaluations yet">Active rules are evaluated every few minutes.</EmptyState>}
              columns={[
                { header: 'When', cell: (h) => formatDateTime(h.evaluatedAt) },
                { header: 'Rule', cell: (h) => h.alertName },
                {
                  header: 'Status',
                  cell: (h) => (
                    <span className={h.status === 'triggered' ? 'badge badge-bad' : 'badge badge-good'}>
                      {h.status}
                    </span>
                  ),
                },
                {
                  header: 'Failing cells',
                  align: 'right',
                  cell: (h) =>
                    h.totalCells === 0
                      ? 'no data'
                      : `${formatNumber(h.failingCells)} / ${formatNumber(h.totalCells)} (${formatPercent(h.failingPercentage / 100)})`,
                },
                {
                  header: 'Threshold',
                  align: 'right',
                  cell: (h) => `${formatNumber(h.threshold, 1)} · ${ALERT_METRIC_LABELS[h.metric]}`,
                },
                { header: 'Notification', cell: (h) => notificationSummary(h) },
              ]}
            />
            {loadMore.error && <ErrorNotice error={loadMore.error} />}
            {nextCursor && (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => void onMore()}
                disabled={loadMore.pending}
              >
                {loadMore.pending ? 'Loading…' : 'Load older'}
              </button>
            )}
          </>
        )}
      </AsyncView>
    </Panel>
  );
}

function notificationSummary(h: AlertHistoryEntry): string {
  if (h.notificationOutcome === 'cooldown') return 'held back (cooldown)';
  if (!h.notification) return '—';
  const d = h.notification.deliveries;
  if (d.length === 0) return 'no channel';
  const delivered = d.filter((x) => x.status === 'delivered').length;
  const failed = d.filter((x) => x.status === 'failed').length;
  return `${delivered}/${d.length} delivered${failed ? `, ${failed} failed` : ''}`;
}

function ChannelsTab({ projectId, channels }: { projectId: string; channels: ApiResource<NotificationChannel[]> }) {
  const [draft, setDraft] = useState<NewChannel>({ type: 'webhook', name: '', url: '' });
  const [secret, setSecret] = useState<string | undefined>();
  const create = useAction((c: NewChannel) => alertsApi.createChannel(projectId, c));
  const remove = useAction((id: string) => alertsApi.deleteChannel(projectId, id));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await create.run({ ...draft, name: draft.name.trim(), url: draft.url.trim() });
    if (created) {
      setSecret(created.secret ?? undefined);
      setDraft({ type: draft.type, name: '', url: '' });
      channels.reload();
    }
  };
  const removeChannel = async (id: string) => {
    if (await remove.run(id)) channels.reload();
  };

  return (
    <div className="stack-lg">
      {secret && (
        <SecretReveal
          title="Webhook signing secret"
          explanation="Verify the X-FrameDeck-Signature header with it. It is shown only now."
          value={secret}
          onDone={() => setSecret(undefined)}
        />
      )}
      <Panel title="New channel">
        <form onSubmit={(e) => void submit(e)} className="form-inline" aria-label="New notification channel">
          <SelectField
            label="Type"
            value={draft.type}
            options={[
              { value: 'webhook' as const, label: 'Webhook (signed JSON)' },
              { value: 'slack' as const, label: 'Slack incoming webhook' },
            ]}
            onChange={(type) => setDraft((d) => ({ ...d, type }))}
          />
          <Field label="Name">
            <input
              required
              maxLength={200}
              value={draft.name}
              onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))}
            />
          </Field>
          <Field label="URL" hint="https only.">
            <input
              required
              type="url"
              maxLength={2048}
              value={draft.url}
              onChange={(e) => setDraft((d) => ({ ...d, url: e.target.value }))}
              placeholder="https://"
            />
          </Field>
          <button type="submit" className="button button-primary" disabled={create.pending}>
            {create.pending ? 'Adding…' : 'Add channel'}
          </button>
        </form>
        {create.error && <ErrorNotice error={create.error} title="The channel was not added" />}
      </Panel>
      <Panel title="Channels">
        {remove.error && <ErrorNotice error={remove.error} title="The channel was not deleted" />}
        <AsyncView resource={channels} loadingLabel="Loading channels…">
          {(list) => (
            <DataTable
              caption="Notification channels"
              rows={list}
              rowKey={(c) => c.id}
              empty={<EmptyState title="No channels yet">Add a webhook or a Slack channel to be notified.</EmptyState>}
              columns={[
                { header: 'Name', cell: (c) => c.name },
                { header: 'Type', cell: (c) => c.type },
                { header: 'Target', cell: (c) => <code className="small">{c.target}</code> },
                { header: 'Added', cell: (c) => formatDateTime(c.createdAt) },
                {
                  header: 'Actions',
                  cell: (c) => (
                    <ConfirmButton
                      label="Delete"
                      confirmLabel="Confirm delete"
                      accessibleName={`Delete ${c.name}`}
                      disabled={remove.pending}
                      onConfirm={() => void removeChannel(c.id)}
                    />
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
