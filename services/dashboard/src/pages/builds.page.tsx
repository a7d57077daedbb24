import { analyticsApi, type BuildComparisonScope, type BuildMetric, type BuildSummary } from '../api/analytics.api';
import { useSearchParam } from '../app/router';
import { AsyncView } from '../components/async-view';
import { SelectField } from '../components/choice-controls';
import { DataTable } from '../components/data-table';
import { formatDateTime, formatNumber } from '../components/format';
import { PageHeader, Panel } from '../components/page-header';
import { EmptyState } from '../components/status-views';
import { useApi } from '../hooks/use-api';

const METRICS: { key: BuildMetric; label: string; unit: string; digits: number }[] = [
  { key: 'fps', label: 'FPS', unit: 'fps', digits: 1 },
  { key: 'frame_time', label: 'Frame time', unit: 'ms', digits: 2 },
  { key: 'gpu_time', label: 'GPU time', unit: 'ms', digits: 2 },
  { key: 'game_thread', label: 'Game thread', unit: 'ms', digits: 2 },
  { key: 'render_thread', label: 'Render thread', unit: 'ms', digits: 2 },
  { key: 'memory', label: 'Memory', unit: 'MB', digits: 0 },
];
const DAYS = ['7', '14', '30', '90'];

export function BuildsPage({ projectId }: { projectId: string }) {
  const [days, setDays] = useSearchParam('days', '30');
  const builds = useApi((signal) => analyticsApi.builds(projectId, { days: Number(days) }, signal), [projectId, days]);
  return (
    <>
      <PageHeader
        title="Builds"
        description="Compare the performance of two builds: a change counts when the mean moves beyond the noise threshold."
      />
      <div className="toolbar">
        <SelectField
          label="Period"
          value={days}
          options={DAYS.map((d) => ({ value: d, label: `Last ${d} days` }))}
          onChange={setDays}
        />
      </div>
      <AsyncView resource={builds} loadingLabel="Loading builds…">
        {(list) =>
          list.length < 1 ? (
            <EmptyState title="No build has performance data in this period">
              Send events with a build_id and frame samples (fps or frame_time_ms).
            </EmptyState>
          ) : (
            <div className="stack-lg">
              <Comparison projectId={projectId} builds={list} days={days} />
              <Panel title="Builds with performance data">
                <DataTable
                  caption="Builds, most recently seen first"
                  rows={list}
                  rowKey={(b) => b.buildId}
                  columns={[
                    { header: 'Build', cell: (b) => <code>{b.buildId}</code> },
                    { header: 'Samples', align: 'right', cell: (b) => formatNumber(b.samples) },
                    { header: 'Events', align: 'right', cell: (b) => formatNumber(b.events) },
                    { header: 'Platforms', cell: (b) => b.platforms.join(', ') || '—' },
                    { header: 'Maps', align: 'right', cell: (b) => formatNumber(b.maps) },
                    { header: 'Last seen', cell: (b) => formatDateTime(b.lastSeen) },
                  ]}
                />
              </Panel>
            </div>
          )
        }
      </AsyncView>
    </>
  );
}

function Comparison({ projectId, builds, days }: { projectId: string; builds: BuildSummary[]; days: string }) {
  const [base, setBase] = useSearchParam('base', builds[1]?.buildId ?? builds[0]!.buildId);
  const [target, setTarget] = useSearchParam('target', builds[0]!.buildId);
  const options = builds.map((b) => ({ value: b.buildId, label: b.buildId }));
  const comparison = useApi(
    (signal) => analyticsApi.compareBuilds(projectId, { base, target, days: Number(days) }, signal),
    [projectId, base, target, days],
  );
  return (
    <Panel title="Comparison">
      <div className="toolbar">
        <SelectField label="Base build" value={base} options={options} onChange={setBase} />
        <SelectField label="Compared build" value={target} options={options} onChange={setTarget} />
      </div>
      {base === target ? (
        <p className="muted">Pick two different builds.</p>
      ) : (
        <AsyncView resource={comparison} loadingLabel="Comparing…">
          {(c) => (
            <>
              <p className="muted small">
                A metric changed when its mean moved more than {c.thresholdPercent}% and both builds have at least{' '}
                {c.minSamples} samples.
              </p>
              <ComparisonTable scope={c.overall} caption={`${c.target} against ${c.base}, all maps`} />
              {c.maps.map((m) => (
                <details key={m.mapId} className="chart-table">
                  <summary>Map {m.mapId}</summary>
                  <ComparisonTable scope={m} caption={`${c.target} against ${c.base} on ${m.mapId}`} />
                </details>
              ))}
            </>
          )}
        </AsyncView>
      )}
    </Panel>
  );
}

function ComparisonTable({ scope, caption }: { scope: BuildComparisonScope; caption: string }) {
  return (
    <DataTable
      caption={caption}
      rows={METRICS}
      rowKey={(m) => m.key}
      columns={[
        { header: 'Metric', cell: (m) => `${m.label} (${m.unit})` },
        { header: 'Base avg', align: 'right', cell: (m) => formatNumber(scope.base[m.key].avg, m.digits) },
        { header: 'Compared avg', align: 'right', cell: (m) => formatNumber(scope.target[m.key].avg, m.digits) },
        { header: 'Base p95', align: 'right', cell: (m) => formatNumber(scope.base[m.key].p95, m.digits) },
        { header: 'Compared p95', align: 'right', cell: (m) => formatNumber(scope.target[m.key].p95, m.digits) },
        {
          header: 'Change',
          align: 'right',
          cell: (m) => {
            const pct = scope.metrics[m.key].deltaPercent;
            return pct === null ? '—' : `${pct > 0 ? '+' : ''}${pct.toFixed(1)}%`;
          },
        },
        { header: 'Verdict', cell: (m) => <Verdict verdict={scope.metrics[m.key].verdict} /> },
      ]}
    />
  );
}

function Verdict({ verdict }: { verdict: 'better' | 'worse' | 'unchanged' | null }) {
  if (verdict === 'better') return <span className="badge badge-good">Better</span>;
  if (verdict === 'worse') return <span className="badge badge-bad">Worse</span>;
  if (verdict === 'unchanged') return <span className="badge">Unchanged</span>;
  return (
    <span className="badge badge-muted" title="Too few samples for a verdict">
      Not enough data
    </span>
  );
}
