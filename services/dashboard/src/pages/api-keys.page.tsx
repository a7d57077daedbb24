import { useState, type FormEvent } from 'react';
import { apiKeysApi, KEY_PRESET_INFO, type ApiKey, type CreatedKey, type KeyPreset } from '../api/api-keys.api';
import { AsyncView } from '../components/async-view';
import { ConfirmButton } from '../components/confirm-button';
import { DataTable } from '../components/data-table';
import { Field } from '../components/form-field';
import { formatDateTime, formatRelative } from '../components/format';
import { PageHeader, Panel } from '../components/page-header';
import { SecretReveal } from '../components/secret-reveal';
import { ErrorNotice } from '../components/status-views';
import { useAction, useApi } from '../hooks/use-api';
import { useSession } from '../session/session-context';

const FREE_ACTIVE_KEY_LIMIT = 2;

export function ApiKeysPage({ projectId }: { projectId: string }) {
  const keys = useApi((signal) => apiKeysApi.list(projectId, signal), [projectId]);
  const [created, setCreated] = useState<CreatedKey | undefined>();
  const active = keys.data?.filter((k) => !k.deactivatedAt) ?? [];

  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys let SDKs send events and tools read your data. A key's value is shown once, when you create it."
      />
      <div className="stack-lg">
        {created && <NewKeyReveal created={created} onDone={() => setCreated(undefined)} />}
        <CreateKeyForm
          projectId={projectId}
          activeCount={active.length}
          onCreated={(k) => {
            setCreated(k);
            keys.reload();
          }}
        />
        <Panel title="Keys">
          <AsyncView resource={keys} loadingLabel="Loading keys…">
            {(list) => <KeyTable projectId={projectId} keys={list} onChanged={keys.reload} />}
          </AsyncView>
        </Panel>
      </div>
    </>
  );
}

function CreateKeyForm({
  projectId,
  activeCount,
  onCreated,
}: {
  projectId: string;
  activeCount: number;
  onCreated: (created: CreatedKey) => void;
}) {
  const { user } = useSession();
  const [preset, setPreset] = useState<KeyPreset>('ingest');
  const [name, setName] = useState('');
  const create = useAction((p: KeyPreset, n: string) => apiKeysApi.create(projectId, p, n.trim() || undefined));
  const isFree = user?.planId === 'free';
  const atFreeLimit = isFree && activeCount >= FREE_ACTIVE_KEY_LIMIT;
  const planLimitHit = create.error?.status === 403 && create.error.category === 'authorization';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create.run(preset, name);
    if (result) {
      setName('');
      onCreated(result);
    }
  };

  return (
    <Panel title="Create a key">
      {(atFreeLimit || (isFree && planLimitHit)) && (
        <div className="notice notice-warn" role="note">
          <strong>Free plan limit reached</strong>
          <p>
            On the Free plan a project can have at most {FREE_ACTIVE_KEY_LIMIT} active keys. Deactivate a key you no
            longer use, then create the new one.
          </p>
        </div>
      )}
      <form className="form-row" onSubmit={(e) => void submit(e)} aria-label="Create a key">
        <fieldset className="preset-picker">
          <legend>Preset</legend>
          {(Object.keys(KEY_PRESET_INFO) as KeyPreset[]).map((p) => (
            <label key={p} className={preset === p ? 'preset selected' : 'preset'}>
              <input type="radio" name="preset" value={p} checked={preset === p} onChange={() => setPreset(p)} />
              <span className="preset-name">{KEY_PRESET_INFO[p].label}</span>
              <span className="preset-scopes">{KEY_PRESET_INFO[p].scopes.join(', ')}</span>
              <span className="preset-use">{KEY_PRESET_INFO[p].use}</span>
            </label>
          ))}
        </fieldset>
        <div className="form-inline">
          <Field label="Name (optional)">
            <input
              value={name}
              maxLength={100}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. QA build server"
            />
          </Field>
          <button type="submit" className="button button-primary" disabled={create.pending || atFreeLimit}>
            {create.pending ? 'Creating…' : 'Create key'}
          </button>
        </div>
      </form>
      {create.error && !(isFree && planLimitHit) && (
        <ErrorNotice error={create.error} title="The key was not created" />
      )}
    </Panel>
  );
}

function NewKeyReveal({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const preset = KEY_PRESET_INFO[created.key.preset as KeyPreset]?.label ?? created.key.preset;
  return (
    <SecretReveal
      title={`Your new ${preset} key`}
      explanation="Copy it now and store it somewhere safe: it will not be shown again."
      value={created.value}
      onDone={onDone}
    />
  );
}

function KeyTable({ projectId, keys, onChanged }: { projectId: string; keys: ApiKey[]; onChanged: () => void }) {
  const deactivate = useAction((keyId: string) => apiKeysApi.deactivate(projectId, keyId));
  const deactivateKey = async (keyId: string) => {
    if (await deactivate.run(keyId)) onChanged();
  };

  return (
    <>
      {deactivate.error && <ErrorNotice error={deactivate.error} title="The key was not deactivated" />}
      <DataTable
        caption="API keys of this project"
        rows={keys}
        rowKey={(k) => k.id}
        empty={<p className="muted">No keys yet.</p>}
        columns={[
          {
            header: 'Name',
            cell: (k) => (
              <>
                <div>{k.name}</div>
                <code className="muted small">{k.prefix}…</code>
              </>
            ),
          },
          { header: 'Preset', cell: (k) => KEY_PRESET_INFO[k.preset as KeyPreset]?.label ?? k.preset },
          { header: 'Scopes', cell: (k) => <ScopeList scopes={k.scopes} /> },
          { header: 'Created', cell: (k) => formatDateTime(k.createdAt) },
          { header: 'Last used', cell: (k) => formatRelative(k.lastUsedAt) },
          {
            header: 'Status',
            cell: (k) =>
              k.deactivatedAt ? (
                <span className="badge badge-muted">Deactivated</span>
              ) : (
                <span className="badge badge-good">Active</span>
              ),
          },
          {
            header: 'Actions',
            cell: (k) =>
              k.deactivatedAt ? null : (
                <ConfirmButton
                  label="Deactivate"
                  confirmLabel="Confirm deactivate"
                  accessibleName={`Deactivate ${k.name}`}
                  disabled={deactivate.pending}
                  onConfirm={() => void deactivateKey(k.id)}
                />
              ),
          },
        ]}
      />
    </>
  );
}

export function ScopeList({ scopes }: { scopes: readonly string[] }) {
  return (
    <span className="scope-list">
      {scopes.map((s) => (
        <span key={s} className="badge badge-scope">
          {s}
        </span>
      ))}
    </span>
  );
}
