// The Channels tab of the alerts page: webhook and Slack targets, their secrets shown once.
import { useState, type FormEvent } from 'react';
import { alertsApi, type NewChannel, type NotificationChannel } from '../api/alerts.api';
import { AsyncView } from '../components/async-view';
import { SelectField } from '../components/choice-controls';
import { ConfirmButton } from '../components/confirm-button';
import { DataTable } from '../components/data-table';
import { Field } from '../components/form-field';
import { formatDateTime } from '../components/format';
import { Panel } from '../components/page-header';
import { SecretReveal } from '../components/secret-reveal';
import { EmptyState, ErrorNotice } from '../components/status-views';
import { useAction, type ApiResource } from '../hooks/use-api';

export function ChannelsTab({
  projectId,
  channels,
}: {
  projectId: string;
  channels: ApiResource<NotificationChannel[]>;
}) {
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
