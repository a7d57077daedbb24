import { useState } from 'react';
import {
  analyticsApi,
  BUILD_DAYS,
  type BuildCell,
  type BuildComparison,
  type BuildComparisonScope,
  type BuildMetric,
  type BuildSummary,
  type BuildVerdict,
} from '../api/analytics.api';
import { CELL_SIZES } from '../api/heatmap.api';
import { mapsApi, type GameMap } from '../api/maps.api';
import { useSearchParam } from '../app/router';
import { allowedOr } from '../app/search-values';
import { AsyncView } from '../components/async-view';
import { SelectField } from '../components/choice-controls';
import { DataTable } from '../components/data-table';
import { formatChange, formatDateTime, formatNumber } from '../components/format';
import { PageHeader, Panel } from '../components/page-header';
import { EmptyState } from '../components/status-views';
import { useApi } from '../hooks/use-api';
import { BuildDiffCanvas } from '../builds/build-diff-canvas';
import { defaultPair } from '../builds/default-pair';
import { DiffCellReadout } from '../builds/diff-cell-readout';
import { DiffLegend } from '../builds/diff-legend';
import { RegressionsList } from '../builds/regressions-list';
import { VerdictBadge } from '../builds/verdict-badge';

const METRICS: { key: BuildMetric; label: string; unit: string; digits: number }[] = [
  { key: 'fps', label: 'FPS', unit: 'fps', digits: 1 },
  { key: 'frame_time', label: 'Frame time', unit: 'ms', digits: 2 },
  { key: 'gpu_time', label: 'GPU time', unit: 'ms', digits: 2 },
  { key: 'game_thread', label: 'Game thread', unit: 'ms', digits: 2 },
  { key: 'render_thread', label: 'Render thread', unit: 'ms', digits: 2 },
  { key: 'memory', label: 'Memory', unit: 'MB', digits: 0 },
];
// The API's defaults, sent explicitly so the page can state the test it asked for.
const MIN_SAMPLES = 30;
const CONFIDENCE = '0.95';
// Which events count: players', automated runs' (events:synthetic keys), or both (the API's default).
const SOURCES: { value: '' | 'player' | 'automated'; label: string }[] = [
  { value: '', label: 'Players and automated runs' },
  { value: 'player', label: 'Players only' },
  { value: 'automated', label: 'Automated runs only' },
];

export function BuildsPage({ projectId }: { projectId: string }) {
  const [daysParam, setDays] = useSearchParam('days', '30');
  const days = allowedOr(daysParam, BUILD_DAYS, 30);
  const builds = useApi((signal) => analyticsApi.builds(projectId, { days }, signal), [projectId, days]);
  const maps = useApi((signal) => mapsApi.list(projectId, signal), [projectId]);
  return (
    <>
      <PageHeader
        title="Builds"
        description="Compare the performance of two builds, overall and cell by cell on a map: where did it get worse?"
      />
      <div className="toolbar">
        <SelectField
          label="Period"
          value={String(days)}
          options={BUILD_DAYS.map((d) => ({ value: String(d), label: `Last ${d} days` }))}
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
              <Comparison projectId={projectId} builds={list} maps={maps.data ?? []} days={days} />
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

type ComparisonProps = {
  projectId: string;
  builds: BuildSummary[];
  maps: GameMap[];
  days: (typeof BUILD_DAYS)[number];
};

function Comparison({ projectId, builds, maps, days }: ComparisonProps) {
  const pair = defaultPair(builds, MIN_SAMPLES)!;
  const [base, setBase] = useSearchParam('base', pair.base);
  const [target, setTarget] = useSearchParam('target', pair.target);
  const [mapParam, setMapId] = useSearchParam('mapId', maps[0]?.mapId ?? '');
  const [cellSizeParam, setCellSize] = useSearchParam('cellSize', '25');
  const cellSize = allowedOr(cellSizeParam, CELL_SIZES, 25);
  const [platform, setPlatform] = useSearchParam('platform', '');
  const [sourceParam, setSource] = useSearchParam('source', '');
  const source = SOURCES.find((s) => s.value === sourceParam)?.value ?? '';
  const platforms = [...new Set(builds.flatMap((b) => b.platforms))].sort();
  const map = maps.find((m) => m.mapId === mapParam);
  const options = builds.map((b) => ({ value: b.buildId, label: `${b.buildId} (${formatNumber(b.samples)} samples)` }));
  const comparison = useApi(
    (signal) =>
      analyticsApi.compareBuilds(
        projectId,
        {
          base,
          target,
          days,
          minSamples: MIN_SAMPLES,
          ...(map && { mapId: map.mapId, cellSize, confidence: CONFIDENCE }),
          ...(platform && { platform }),
          ...(source && { source }),
        },
        signal,
      ),
    [projectId, base, target, days, map?.mapId, cellSize, platform, source],
  );
  return (
    <Panel title="Comparison">
      <div className="toolbar" role="group" aria-label="Comparison settings">
        <SelectField label="Base build" value={base} options={options} onChange={setBase} />
        <SelectField label="Compared build" value={target} options={options} onChange={setTarget} />
        <SelectField
          label="Map"
          value={map?.mapId ?? ''}
          options={[
            { value: '', label: 'All maps (no per-cell test)' },
            ...maps.map((m) => ({ value: m.mapId, label: m.name })),
          ]}
          onChange={setMapId}
        />
        <SelectField
          label="Platform"
          value={platform}
          options={[{ value: '', label: 'All platforms' }, ...platforms.map((p) => ({ value: p, label: p }))]}
          onChange={setPlatform}
        />
        <SelectField label="Source" value={source} options={SOURCES} onChange={setSource} />
        {map && (
          <SelectField
            label="Cell size"
            value={String(cellSize)}
            options={CELL_SIZES.map((c) => ({ value: String(c), label: `${c} units` }))}
            onChange={setCellSize}
          />
        )}
      </div>
      {base === target ? (
        <p className="muted">Pick two different builds.</p>
      ) : (
        <AsyncView resource={comparison} loadingLabel="Comparing…">
          {(c) => (
            <>
              <OverallVerdict comparison={c} map={map} />
              {map && c.cells && (
                <BuildDiff projectId={projectId} comparison={c} map={map} cellSize={cellSize} days={days} />
              )}
              <p className="muted small">
                A metric changed when its mean moved more than {c.thresholdPercent}% and both builds have at least{' '}
                {c.minSamples} samples.
              </p>
              <ComparisonTable
                scope={c.overall}
                frameTimeVerdict={c.verdict}
                caption={`${c.target} against ${c.base}, all maps`}
              />
              {c.maps.map((m) => (
                <details key={m.mapId} className="chart-table">
                  <summary>Map {m.mapId}</summary>
                  <ComparisonTable
                    scope={m}
                    frameTimeVerdict={m.mapId === map?.mapId ? c.verdict : undefined}
                    caption={`${c.target} against ${c.base} on ${m.mapId}`}
                  />
                </details>
              ))}
            </>
          )}
        </AsyncView>
      )}
    </Panel>
  );
}

/**
 * The answer's own verdict, not the overall mean's: with a map it is worse whenever a cell is,
 * so a local regression never hides behind "Unchanged".
 */
function OverallVerdict({ comparison: c, map }: { comparison: BuildComparison; map: GameMap | undefined }) {
  const worse = c.regressions?.length ?? 0;
  return (
    <p className="build-verdict" data-testid="build-verdict">
      <span>
        Frame time, {c.target} against {c.base}
        {map ? ` on ${map.name}` : ', all maps'}:
      </span>{' '}
      <VerdictBadge verdict={c.verdict} />
      {map && c.testedCells !== undefined && (
        <span className="muted small">
          {' '}
          {formatNumber(worse)} of {formatNumber(c.testedCells)} tested cells worse
        </span>
      )}
    </p>
  );
}

type DiffProps = { projectId: string; comparison: BuildComparison; map: GameMap; cellSize: number; days: number };

/** Where it got worse: the diff heatmap with its legend and hovered cell, then the ranked regressions. */
function BuildDiff({ projectId, comparison: c, map, cellSize, days }: DiffProps) {
  const [hovered, setHovered] = useState<BuildCell | undefined>();
  const cells = c.cells ?? [];
  return (
    <div className="build-diff">
      <div className="heatmap-layout">
        <BuildDiffCanvas map={map} cells={cells} cellSize={cellSize} hovered={hovered} onHover={setHovered} />
        <div className="heatmap-side">
          <Panel title="Legend">
            <DiffLegend test={{ ...c, confidence: CONFIDENCE }} />
          </Panel>
          <DiffCellReadout cell={hovered} />
        </div>
      </div>
      <Panel title="Where it got worse" className="build-regressions">
        <RegressionsList
          projectId={projectId}
          regressions={c.regressions ?? []}
          cells={cells}
          place={{ mapId: map.mapId, buildId: c.target, cellSize, days }}
        />
      </Panel>
    </div>
  );
}

type TableProps = {
  scope: BuildComparisonScope;
  /**
   * The answer's frame-time verdict, where it covers this scope: it includes the per-cell test,
   * so the frame time row never says "Unchanged" while a cell got worse.
   */
  frameTimeVerdict?: BuildVerdict | undefined;
  caption: string;
};

function ComparisonTable({ scope, frameTimeVerdict, caption }: TableProps) {
  const verdictOf = (key: BuildMetric) =>
    key === 'frame_time' && frameTimeVerdict ? frameTimeVerdict : scope.metrics[key].verdict;
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
        { header: 'Change', align: 'right', cell: (m) => formatChange(scope.metrics[m.key].deltaPercent, 1, '%') },
        { header: 'Verdict', cell: (m) => <VerdictBadge verdict={verdictOf(m.key)} /> },
      ]}
    />
  );
}
