// The form that creates an alert rule or edits one: every field of the rule (map, metric,
// threshold profiles and level, cells, window, cooldown, channels, on/off).
import { useState, type FormEvent } from 'react';
import {
  ALERT_METRIC_LABELS,
  alertsApi,
  type AlertMetric,
  type AlertRule,
  type NewAlertRule,
  type NotificationChannel,
  type ThresholdLevel,
  type ThresholdProfile,
} from '../api/alerts.api';
import { CELL_SIZES, HEATMAP_DAYS } from '../api/heatmap.api';
import { type GameMap } from '../api/maps.api';
import { SelectField } from '../components/choice-controls';
import { Field } from '../components/form-field';
import { Panel } from '../components/page-header';
import { useAction } from '../hooks/use-api';
import { SaveControls } from './save-controls';

/** Every field the form edits, all present (the create body's defaults filled in). */
type RuleDraft = Required<NewAlertRule>;

function blankDraft(maps: GameMap[], profiles: ThresholdProfile[]): RuleDraft {
  const primary = profiles.find((p) => p.isDefault) ?? profiles[0];
  return {
    name: '',
    mapId: maps[0]!.id,
    metric: 'fps',
    thresholdLevel: 'warn',
    thresholdProfileIds: primary ? [primary.id] : [],
    failPercentage: 25,
    evaluationDays: 7,
    cellSize: 25,
    cooldownMinutes: 60,
    channelIds: [],
    isActive: true,
  };
}

function draftOf(rule: AlertRule): RuleDraft {
  return {
    name: rule.name,
    mapId: rule.mapId,
    metric: rule.metric,
    thresholdLevel: rule.thresholdLevel,
    thresholdProfileIds: rule.thresholdProfileIds,
    failPercentage: rule.failPercentage,
    evaluationDays: rule.evaluationDays as RuleDraft['evaluationDays'],
    cellSize: rule.cellSize as RuleDraft['cellSize'],
    cooldownMinutes: rule.cooldownMinutes,
    channelIds: rule.channelIds,
    isActive: rule.isActive,
  };
}

/** Adds or removes one id, keeping the order of `all` (the first checked profile is the primary one). */
function toggled(ids: readonly string[], id: string, on: boolean, all: readonly string[]): string[] {
  const chosen = new Set(ids);
  if (on) chosen.add(id);
  else chosen.delete(id);
  return all.filter((x) => chosen.has(x));
}

/**
 * Without `rule`, creates one (and starts blank again); with it, edits that rule (PATCH with
 * every field). The API's refusals (400 with what is wrong, 404) are shown above the buttons.
 */
export function RuleForm({
  projectId,
  maps,
  profiles,
  channels,
  rule,
  onSaved,
  onCancel,
}: {
  projectId: string;
  maps: GameMap[];
  profiles: ThresholdProfile[];
  channels: NotificationChannel[];
  rule?: AlertRule | undefined;
  onSaved: () => void;
  onCancel?: (() => void) | undefined;
}) {
  const [draft, setDraft] = useState<RuleDraft>(() => (rule ? draftOf(rule) : blankDraft(maps, profiles)));
  const save = useAction((r: RuleDraft) =>
    rule ? alertsApi.update(projectId, rule.id, r) : alertsApi.create(projectId, r),
  );
  const set = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]) => setDraft((r) => ({ ...r, [key]: value }));
  // A rule whose map was deleted keeps its mapId: offer it so the form shows what is stored.
  const mapOptions = maps.map((m) => ({ value: m.id, label: m.name }));
  if (!maps.some((m) => m.id === draft.mapId)) mapOptions.unshift({ value: draft.mapId, label: 'Deleted map' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await save.run({ ...draft, name: draft.name.trim() })) {
      if (!rule) setDraft(blankDraft(maps, profiles));
      onSaved();
    }
  };

  const title = rule ? `Edit rule “${rule.name}”` : 'New rule';
  return (
    <Panel title={title}>
      <form onSubmit={(e) => void submit(e)} className="stack" aria-label={rule ? 'Edit alert rule' : 'New alert rule'}>
        <div className="form-grid">
          <Field label="Name">
            <input required maxLength={200} value={draft.name} onChange={(e) => set('name', e.target.value)} />
          </Field>
          <SelectField label="Map" value={draft.mapId} options={mapOptions} onChange={(v) => set('mapId', v)} />
          <SelectField
            label="Metric"
            value={draft.metric}
            options={(Object.keys(ALERT_METRIC_LABELS) as AlertMetric[]).map((m) => ({
              value: m,
              label: ALERT_METRIC_LABELS[m],
            }))}
            onChange={(v) => set('metric', v)}
          />
          <SelectField
            label="A cell fails when worse than"
            value={draft.thresholdLevel}
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
              step="any"
              required
              value={draft.failPercentage}
              onChange={(e) => set('failPercentage', Number(e.target.value))}
            />
          </Field>
          <SelectField
            label="Evaluated period"
            value={draft.evaluationDays}
            options={HEATMAP_DAYS.map((d) => ({ value: d, label: `${d} day${d === 1 ? '' : 's'}` }))}
            onChange={(v) => set('evaluationDays', v)}
          />
          <SelectField
            label="Cell size"
            value={draft.cellSize}
            options={CELL_SIZES.map((c) => ({ value: c, label: `${c} units` }))}
            onChange={(v) => set('cellSize', v)}
          />
          <Field label="Cooldown (minutes)" hint="Least time between two notifications.">
            <input
              type="number"
              min={0}
              max={10080}
              required
              value={draft.cooldownMinutes}
              onChange={(e) => set('cooldownMinutes', Number(e.target.value))}
            />
          </Field>
        </div>
        <CheckboxSet
          legend="Threshold profiles"
          hint="Cells are held to each; the rule triggers when any profile's evaluation does."
          options={profiles.map((p) => ({ id: p.id, label: p.name }))}
          chosen={draft.thresholdProfileIds}
          onChange={(ids) => set('thresholdProfileIds', ids)}
        />
        {channels.length > 0 && (
          <CheckboxSet
            legend="Notify"
            options={channels.map((c) => ({ id: c.id, label: c.name, note: c.type }))}
            chosen={draft.channelIds}
            onChange={(ids) => set('channelIds', ids)}
          />
        )}
        <label className="checkbox">
          <input type="checkbox" checked={draft.isActive} onChange={(e) => set('isActive', e.target.checked)} />
          Active (evaluated and notifying)
        </label>
        <SaveControls noun="rule" editing={!!rule} pending={save.pending} error={save.error} onCancel={onCancel} />
      </form>
    </Panel>
  );
}

function CheckboxSet({
  legend,
  hint,
  options,
  chosen,
  onChange,
}: {
  legend: string;
  hint?: string;
  options: { id: string; label: string; note?: string }[];
  chosen: readonly string[];
  onChange: (ids: string[]) => void;
}) {
  const all = options.map((o) => o.id);
  return (
    <fieldset>
      <legend>{legend}</legend>
      {hint && <small className="field-hint">{hint}</small>}
      <div className="checkbox-row">
        {options.map((o) => (
          <label key={o.id} className="checkbox">
            <input
              type="checkbox"
              checked={chosen.includes(o.id)}
              onChange={(e) => onChange(toggled(chosen, o.id, e.target.checked, all))}
            />
            {o.label} {o.note && <span className="muted small">({o.note})</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
