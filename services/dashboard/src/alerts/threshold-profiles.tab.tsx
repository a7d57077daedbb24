// The Profiles tab of the alerts page: the project's threshold profiles (the limits rules hold
// cells to, and the heatmap's colour bands), each editable, new ones added, unused ones deleted.
import { useState, type FormEvent } from 'react';
import {
  ALERT_METRIC_LABELS,
  alertsApi,
  type AlertMetric,
  type ThresholdProfile,
  type ThresholdProfileBody,
} from '../api/alerts.api';
import { AsyncView } from '../components/async-view';
import { ConfirmButton } from '../components/confirm-button';
import { DataTable } from '../components/data-table';
import { Field } from '../components/form-field';
import { Panel } from '../components/page-header';
import { EmptyState, ErrorNotice } from '../components/status-views';
import { useAction, useApi } from '../hooks/use-api';
import { SaveControls } from './save-controls';

type LimitPair = { good: number; warn: number };
type LimitKey = {
  [K in keyof ThresholdProfile]: ThresholdProfile[K] extends LimitPair ? K : never;
}[keyof ThresholdProfile];
type TargetKey = 'platform' | 'resolution' | 'buildConfig' | 'gpu' | 'storage';

/**
 * Each pair of limits in a profile: the alert metric it limits (whose label names the form's
 * fields) and a short column header, so that seven pairs fit the table's width.
 */
const LIMITS: Record<LimitKey, { metric: AlertMetric; column: string }> = {
  fps: { metric: 'fps', column: 'FPS' },
  frameTimeMs: { metric: 'frame_time', column: 'Frame ms' },
  gpuTimeMs: { metric: 'gpu_time', column: 'GPU ms' },
  memoryMb: { metric: 'memory', column: 'Memory MB' },
  p99FrameTimeMs: { metric: 'p99_frame_time', column: 'p99 ms' },
  hitchShare33msPercent: { metric: 'hitch_share_33ms', column: '> 33.3 ms %' },
  hitchShare50msPercent: { metric: 'hitch_share_50ms', column: '> 50 ms %' },
};
const LIMIT_KEYS = Object.keys(LIMITS) as LimitKey[];

const TARGETS: Record<TargetKey, string> = {
  platform: 'Platform',
  resolution: 'Resolution',
  buildConfig: 'Build configuration',
  gpu: 'GPU',
  storage: 'Storage',
};
const TARGET_KEYS = Object.keys(TARGETS) as TargetKey[];

/** The form's fields: numbers as typed (strings), targets '' for "any". */
type ProfileDraft = { name: string } & Record<LimitKey, { good: string; warn: string }> & Record<TargetKey, string>;

/** The profile's values as form fields; without one, every field empty. */
function draftOf(profile: ThresholdProfile | undefined): ProfileDraft {
  const draft = { name: profile?.name ?? '' } as ProfileDraft;
  for (const key of LIMIT_KEYS) {
    draft[key] = { good: String(profile?.[key].good ?? ''), warn: String(profile?.[key].warn ?? '') };
  }
  for (const key of TARGET_KEYS) draft[key] = profile?.[key] ?? '';
  return draft;
}

/**
 * The request body: every limit and target as the form holds it. A limit left empty is sent as
 * null, so the API says which one is missing (its 400 names the field) rather than the form
 * guessing a value.
 */
function bodyOf(draft: ProfileDraft): ThresholdProfileBody {
  const number = (text: string) => (text.trim() === '' ? null : Number(text));
  const body = { name: draft.name.trim() } as Record<string, unknown>;
  for (const key of LIMIT_KEYS) body[key] = { good: number(draft[key].good), warn: number(draft[key].warn) };
  for (const key of TARGET_KEYS) body[key] = draft[key].trim() === '' ? null : draft[key].trim();
  return body as ThresholdProfileBody;
}

/** 60, 16.7, 0.5, 4,096: no padding zeros, which would widen a table of seven pairs. */
const formatLimit = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 2 });

export function ProfilesTab({ projectId }: { projectId: string }) {
  const profiles = useApi((signal) => alertsApi.thresholdProfiles(projectId, signal), [projectId]);
  const [editing, setEditing] = useState<ThresholdProfile | 'new' | undefined>();
  const remove = useAction((id: string) => alertsApi.deleteThresholdProfile(projectId, id));
  const removeProfile = async (id: string) => {
    if (await remove.run(id)) profiles.reload();
  };

  return (
    <div className="stack-lg">
      {editing ? (
        <ProfileForm
          key={editing === 'new' ? 'new' : editing.id}
          projectId={projectId}
          profile={editing === 'new' ? undefined : editing}
          start={editing === 'new' ? profiles.data?.find((p) => p.isDefault) : editing}
          onSaved={() => {
            setEditing(undefined);
            profiles.reload();
          }}
          onCancel={() => setEditing(undefined)}
        />
      ) : (
        <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
          New profile
        </button>
      )}
      <Panel title="Threshold profiles">
        {remove.error && <ErrorNotice error={remove.error} title="The profile was not deleted" />}
        <AsyncView resource={profiles} loadingLabel="Loading threshold profiles…">
          {(list) => (
            <DataTable
              caption="Threshold profiles: good / warn limits (FPS at or above, the others at or below)"
              rows={list}
              rowKey={(p) => p.id}
              empty={<EmptyState title="No threshold profiles" />}
              columns={[
                {
                  header: 'Profile',
                  cell: (p) => (
                    <>
                      <div>{p.name}</div>
                      <div className="muted small">
                        {p.isDefault ? 'Default · ' : ''}
                        {TARGET_KEYS.map((k) => p[k])
                          .filter(Boolean)
                          .join(' · ') || 'any hardware'}
                      </div>
                    </>
                  ),
                },
                ...LIMIT_KEYS.map((key) => ({
                  header: LIMITS[key].column,
                  align: 'right' as const,
                  className: 'limit-pair',
                  cell: (p: ThresholdProfile) => `${formatLimit(p[key].good)} / ${formatLimit(p[key].warn)}`,
                })),
                {
                  header: 'Actions',
                  cell: (p) => (
                    <div className="form-inline">
                      <button
                        type="button"
                        className="button button-secondary"
                        onClick={() => setEditing(p)}
                        aria-label={`Edit ${p.name}`}
                      >
                        Edit
                      </button>
                      {!p.isDefault && (
                        <ConfirmButton
                          label="Delete"
                          confirmLabel="Confirm delete"
                          accessibleName={`Delete ${p.name}`}
                          disabled={remove.pending}
                          onConfirm={() => void removeProfile(p.id)}
                        />
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

/**
 * Creates a profile (`profile` absent; fields start from `start`, the default profile) or edits
 * one (PATCH with every field). The API's 400 (a limit out of range, good less strict than warn)
 * and 409 (name taken) are shown as it words them.
 */
function ProfileForm({
  projectId,
  profile,
  start,
  onSaved,
  onCancel,
}: {
  projectId: string;
  profile: ThresholdProfile | undefined;
  start: ThresholdProfile | undefined;
  onSaved: () => void;
  onCancel: () => void;
}) {
  // A new profile starts from the default profile's limits, with a name of its own.
  const [draft, setDraft] = useState<ProfileDraft>(() => ({ ...draftOf(start), name: profile?.name ?? '' }));
  const save = useAction((body: ThresholdProfileBody) =>
    profile
      ? alertsApi.updateThresholdProfile(projectId, profile.id, body)
      : alertsApi.createThresholdProfile(projectId, body),
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await save.run(bodyOf(draft))) onSaved();
  };
  const setLimit = (key: LimitKey, level: 'good' | 'warn', value: string) =>
    setDraft((d) => ({ ...d, [key]: { ...d[key], [level]: value } }));

  return (
    <Panel title={profile ? `Edit profile “${profile.name}”` : 'New profile'}>
      <form
        onSubmit={(e) => void submit(e)}
        className="stack"
        aria-label={profile ? 'Edit threshold profile' : 'New threshold profile'}
      >
        <div className="form-grid">
          <Field label="Profile name">
            <input
              required
              maxLength={200}
              value={draft.name}
              onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))}
            />
          </Field>
          {TARGET_KEYS.map((key) => (
            <Field key={key} label={TARGETS[key]} hint="Empty: any.">
              <input
                maxLength={key === 'gpu' ? 200 : 100}
                value={draft[key]}
                onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
              />
            </Field>
          ))}
        </div>
        <fieldset>
          <legend>Limits</legend>
          <small className="field-hint">
            A cell is good within the good limit, acceptable within the warn limit, bad beyond it (FPS: at or above; the
            others: at or below).
          </small>
          <div className="form-grid">
            {LIMIT_KEYS.flatMap((key) =>
              (['good', 'warn'] as const).map((level) => (
                <Field key={`${key}-${level}`} label={`${ALERT_METRIC_LABELS[LIMITS[key].metric]} ${level}`}>
                  <input
                    type="number"
                    min={0}
                    step="any"
                    value={draft[key][level]}
                    onChange={(e) => setLimit(key, level, e.target.value)}
                  />
                </Field>
              )),
            )}
          </div>
        </fieldset>
        <SaveControls
          noun="profile"
          editing={!!profile}
          pending={save.pending}
          error={save.error}
          onCancel={onCancel}
        />
      </form>
    </Panel>
  );
}
