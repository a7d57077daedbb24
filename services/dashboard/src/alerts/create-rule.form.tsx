// The form that creates an alert rule (map, metric, threshold profile level, cells, channels).
import { useState, type FormEvent } from 'react';
import {
  ALERT_METRIC_LABELS,
  alertsApi,
  type AlertMetric,
  type NewAlertRule,
  type NotificationChannel,
  type ThresholdLevel,
} from '../api/alerts.api';
import { CELL_SIZES, HEATMAP_DAYS } from '../api/heatmap.api';
import { type GameMap } from '../api/maps.api';
import { SelectField } from '../components/choice-controls';
import { Field } from '../components/form-field';
import { Panel } from '../components/page-header';
import { ErrorNotice } from '../components/status-views';
import { useAction } from '../hooks/use-api';

export function CreateRuleForm({
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
