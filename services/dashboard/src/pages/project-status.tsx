import type { ProjectStatus } from '../api/projects.api';
import { DataTable } from '../components/data-table';
import { formatDate, formatNumber, formatRelative, humanize } from '../components/format';
import { StatTile } from '../components/page-header';
import { EmptyState } from '../components/status-views';

/** The KPI tiles of GET /v1/projects/{id}/status. */
export function KpiTiles({ status, compact = false }: { status: ProjectStatus; compact?: boolean }) {
  const rejected = status.rejectedEvents.total;
  return (
    <div className="stat-grid">
      <StatTile
        label="Events, last 24 h"
        value={formatNumber(status.events.last24h)}
        hint={`${formatNumber(status.events.last7d)} in 7 days`}
      />
      <StatTile label="Active players, 24 h" value={formatNumber(status.activePlayers24h)} />
      <StatTile label="Sessions, 24 h" value={formatNumber(status.activeSessions24h)} />
      <StatTile
        label="Rejected events"
        value={formatNumber(rejected)}
        hint={`since ${formatDate(status.rejectedEvents.since)}`}
        tone={rejected > 0 ? 'warn' : undefined}
      />
      <StatTile
        label="Last event"
        value={status.events.lastEventAt ? formatRelative(status.events.lastEventAt) : 'none yet'}
      />
      {!compact && <StatTile label="Maps" value={formatNumber(status.maps)} />}
      {!compact && <StatTile label="Active API keys" value={formatNumber(status.activeKeys)} />}
    </div>
  );
}

/** Events the consumer discarded, by reason: silent loss made visible. */
export function RejectedByReason({ status }: { status: ProjectStatus }) {
  const rows = [...status.rejectedEvents.byReason].filter((r) => r.count > 0).sort((a, b) => b.count - a.count);
  const total = status.rejectedEvents.total;
  return (
    <DataTable
      caption="Rejected events by reason"
      columns={[
        { header: 'Reason', cell: (r) => <span title={r.reason}>{humanize(r.reason)}</span> },
        { header: 'Events', align: 'right', cell: (r) => formatNumber(r.count) },
        {
          header: 'Share',
          cell: (r) => (
            <span className="bar-cell" aria-hidden="true">
              <span style={{ width: `${total ? (r.count / total) * 100 : 0}%` }} />
            </span>
          ),
        },
      ]}
      rows={rows}
      rowKey={(r) => r.reason}
      empty={
        <EmptyState title="No rejected events">
          Every event received since {formatDate(status.rejectedEvents.since)} passed validation.
        </EmptyState>
      }
    />
  );
}
