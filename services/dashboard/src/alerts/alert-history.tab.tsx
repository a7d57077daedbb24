// The History tab of the alerts page: evaluations that fired or recovered, the cells that
// decided them (each a link to the heatmap at that cell), and their notifications.
import { useState } from 'react';
import { ALERT_METRIC_LABELS, alertsApi, type AlertHistoryEntry } from '../api/alerts.api';
import { Link } from '../app/router';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { formatDateTime, formatNumber, formatPercent } from '../components/format';
import { Panel } from '../components/page-header';
import { EmptyState, ErrorNotice } from '../components/status-views';
import { useAction, useApi } from '../hooks/use-api';

export function HistoryTab({ projectId }: { projectId: string }) {
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
                { header: 'Worst cells', cell: (h) => <WorstCells entry={h} /> },
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

/**
 * The dashboard's own address of a link the API gives in full ({app_origin}/projects/…): the
 * router opens it in place, whatever origin the API was configured with.
 */
function inApp(url: string): string {
  const { pathname, search } = new URL(url);
  return pathname + search;
}

/** "(x, y) value" per cell, failing ones marked, each opening the heatmap focused on it; then the whole heatmap. */
function WorstCells({ entry }: { entry: AlertHistoryEntry }) {
  if (entry.worstCells.length === 0) return <span className="muted">—</span>;
  return (
    <div className="stack">
      <ul className="worst-cells" aria-label={`Worst cells of ${entry.alertName}`}>
        {entry.worstCells.map((c) => {
          const label = `(${formatNumber(c.x, 1)}, ${formatNumber(c.y, 1)}) ${formatNumber(c.value, 1)}`;
          const title = `${formatNumber(c.eventCount)} events · ${c.failing ? 'worse than' : 'within'} ${formatNumber(entry.threshold, 1)}`;
          return (
            <li key={`${c.x},${c.y}`} className={c.failing ? 'worst-cell-failing' : undefined} title={title}>
              {c.dashboardUrl ? <Link to={inApp(c.dashboardUrl)}>{label}</Link> : label}
            </li>
          );
        })}
      </ul>
      {entry.dashboardUrl && (
        <Link to={inApp(entry.dashboardUrl)} className="small">
          Open the heatmap
        </Link>
      )}
    </div>
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
