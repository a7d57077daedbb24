import { useState, type FormEvent } from 'react';
import { apiKeysApi, KEY_PRESET_INFO, type ApiKey, type CreatedKey, type KeyPreset } from '../api/api-keys.api';
import { AsyncView } from '../components/async-view';
import { CopyButton } from '../components/copy-button';
import { DataTable } from '../components/data-table';
import { Field } from '../components/form-field';
import { formatDateTime, formatRelative } from '../components/format';
import { PageHeader, Panel } from '../components/page-header';
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
  return (
    <section className="notice notice-success key-reveal" aria-labelledby="new-key-title">
      <strong id="new-key-title">Your new {KEY_PRESET_INFO[created.key.preset as KeyPreset]?.label ?? ''} key</strong>
      <p>Copy it now and store it somewhere safe: it will not be shown again.</p>
      <div className="key-value-row">
        <code className="key-value" data-testid="new-key-value" tabIndex={0}>
          {created.value}
        </code>
        <CopyButton value={created.value} />
      </div>
      <button type="button" className="button button-ghost" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}

function KeyTable({ projectId, keys, onChanged }: { projectId: string; keys: ApiKey[]; onChanged: () => void }) {
  const deactivate = useAction((keyId: string) => apiKeysApi.deactivate(projectId, keyId));
  const [confirming, setConfirming] = useState<string | undefined>();

  const confirm = async (keyId: string) => {
    setConfirming(undefined);
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
              k.deactivatedAt ? null : confirming === k.id ? (
                <span className="button-group">
                  <button type="button" className="button button-danger" onClick={() => void confirm(k.id)}>
                    Confirm deactivate
                  </button>
                  <button type="button" className="button button-ghost" onClick={() => setConfirming(undefined)}>
                    Cancel
                  </button>
                </span>
              ) : (
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={deactivate.pending}
                  onClick={() => setConfirming(k.id)}
                  aria-label={`Deactivate ${k.name}`}
                >
                  Deactivate
                </button>
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
