import { oauthAppsApi, type AuthorizedApp } from '../api/oauth-apps.api';
import { AsyncView } from '../components/async-view';
import { ConfirmButton } from '../components/confirm-button';
import { DataTable } from '../components/data-table';
import { formatDateTime, formatRelative } from '../components/format';
import { PageHeader, Panel } from '../components/page-header';
import { EmptyState, ErrorNotice } from '../components/status-views';
import { useAction, useApi } from '../hooks/use-api';
import { ScopeList } from './api-keys.page';

/** Settings → the OAuth apps this user authorized, each revocable. */
export function AuthorizedAppsPage() {
  const apps = useApi((signal) => oauthAppsApi.list(signal), []);
  const revoke = useAction((clientId: string) => oauthAppsApi.revoke(clientId));
  const revokeApp = async (clientId: string) => {
    if (await revoke.run(clientId)) apps.reload();
  };

  return (
    <>
      <PageHeader
        title="Authorized apps"
        description="Tools you allowed to read (or change) your projects through OAuth. Revoking one ends its access at once."
      />
      <Panel>
        {revoke.error && <ErrorNotice error={revoke.error} title="The app was not revoked" />}
        <AsyncView resource={apps} loadingLabel="Loading authorized apps…">
          {(list) => (
            <DataTable
              caption="Authorized OAuth apps"
              rows={list}
              rowKey={(a) => a.clientId}
              empty={
                <EmptyState title="No authorized apps">
                  When a tool asks to connect to FrameDeck and you approve it, it is listed here.
                </EmptyState>
              }
              columns={[
                {
                  header: 'App',
                  cell: (a: AuthorizedApp) => (
                    <>
                      <div>{a.clientName ?? 'Unnamed app'}</div>
                      <div className="muted small">{a.redirectHosts.join(', ')}</div>
                    </>
                  ),
                },
                { header: 'Scopes', cell: (a) => <ScopeList scopes={a.scopes} /> },
                { header: 'Projects', cell: (a) => a.projects.map((p) => p.name).join(', ') || '—' },
                { header: 'Authorized', cell: (a) => formatDateTime(a.createdAt) },
                { header: 'Last used', cell: (a) => formatRelative(a.lastUsedAt) },
                {
                  header: 'Actions',
                  cell: (a) => (
                    <ConfirmButton
                      label="Revoke"
                      confirmLabel="Confirm revoke"
                      accessibleName={`Revoke ${a.clientName ?? a.clientId}`}
                      disabled={revoke.pending}
                      onConfirm={() => void revokeApp(a.clientId)}
                    />
                  ),
                },
              ]}
            />
          )}
        </AsyncView>
      </Panel>
    </>
  );
}
