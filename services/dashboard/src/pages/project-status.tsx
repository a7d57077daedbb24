import type { ProjectStatus } from '../api/projects.api';
import { DataTable } from '../components/data-table';
import { formatNumber, humanize } from '../components/format';
import { StatTile } from '../components/page-header';
import { EmptyState } from '../components/status-views';

/** The KPI tiles of GET /v1/projects/{id}/status. */
export function KpiTiles({ status }: { status: ProjectStatus }) {
  const kpis = Object.entries(status.kpis ?? {}).filter(([, v]) => typeof v === 'number' || typeof v === 'string');
  if (kpis.length === 0) return <EmptyState title="No KPIs yet" />;
  return (
    <div className="stat-grid">
      {kpis.map(([name, value]) => (
        <StatTile key={name} label={humanize(name)} value={typeof value === 'number' ? formatNumber(value) : value} />
      ))}
    </div>
  );
}

/** Events the consumer discarded, by reason: silent loss made visible. */
export function RejectedByReason({ status }: { status: ProjectStatus }) {
  const rows = rejectedRows(status);
  const total = rows.reduce((sum, r) => sum + r.count, 0);
  return (
    <DataTable
      caption="Rejected events by reason"
      columns={[
        { header: 'Reason', cell: (r) => humanize(r.reason) },
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
      empty={<EmptyState title="No rejected events">Every event received passed validation.</EmptyState>}
    />
  );
}

export function rejectedRows(status: ProjectStatus): { reason: string; count: number }[] {
  const byReason = status.rejectedEvents?.byReason;
  const rows = Array.isArray(byReason)
    ? byReason
    : Object.entries(byReason ?? {}).map(([reason, count]) => ({ reason, count }));
  return rows.filter((r) => r.count > 0).sort((a, b) => b.count - a.count);
}
