import { useMemo, useState } from 'react';
import { analyticsApi } from '../api/analytics.api';
import { CELL_SIZES, HEATMAP_DAYS, heatmapApi, type HeatmapCell } from '../api/heatmap.api';
import { allowedOr } from '../app/search-values';
import { mapsApi, type GameMap } from '../api/maps.api';
import { Link, useSearchParam } from '../app/router';
import { AsyncView } from '../components/async-view';
import { Segmented, SelectField } from '../components/choice-controls';
import { formatNumber } from '../components/format';
import { PageHeader, Panel } from '../components/page-header';
import { EmptyState } from '../components/status-views';
import { useApi } from '../hooks/use-api';
import { HeatmapCanvas } from '../heatmap/heatmap-canvas';
import { cellAt } from '../heatmap/heatmap-geometry';
import { parseFocus } from '../heatmap/heatmap-link';
import { CellReadout, HeatmapLegend } from '../heatmap/heatmap-legend';
import { domainOf, HEATMAP_METRICS, PERFORMANCE_METRICS, type HeatmapMetric } from '../heatmap/heatmap-metrics';

type Mode = 'performance' | 'events';

export function HeatmapPage({ projectId }: { projectId: string }) {
  const maps = useApi((signal) => mapsApi.list(projectId, signal), [projectId]);
  return (
    <>
      <PageHeader
        title="Heatmap"
        description="Where on the map the game runs badly (Performance), or where players do things (Events)."
      />
      <AsyncView resource={maps} loadingLabel="Loading maps…">
        {(list) =>
          list.length === 0 ? (
            <EmptyState title="No maps yet">
              <Link to={`/projects/${projectId}/maps`}>Upload a map</Link> with its world bounds to see heatmaps.
            </EmptyState>
          ) : (
            <HeatmapExplorer projectId={projectId} maps={list} />
          )
        }
      </AsyncView>
    </>
  );
}

function HeatmapExplorer({ projectId, maps }: { projectId: string; maps: GameMap[] }) {
  const [mapId, setMapId] = useSearchParam('mapId', maps[0]!.mapId);
  const [mode, setMode] = useSearchParam('mode', 'performance') as [Mode, (m: string) => void];
  const [metricName, setMetric] = useSearchParam('metric', 'frame_time') as [HeatmapMetric, (m: string) => void];
  const [eventName, setEventName] = useSearchParam('event', '');
  const [cellSizeParam, setCellSize] = useSearchParam('cellSize', '25');
  const [daysParam, setDays] = useSearchParam('days', '7');
  const cellSize = allowedOr(cellSizeParam, CELL_SIZES, 25);
  const days = allowedOr(daysParam, HEATMAP_DAYS, 7);
  const [buildId, setBuildId] = useSearchParam('build', '');
  const [hovered, setHovered] = useState<HeatmapCell | undefined>();
  const [focusParam] = useSearchParam('focus', '');

  const map = maps.find((m) => m.mapId === mapId) ?? maps[0]!;
  const events = useApi(
    (signal) =>
      analyticsApi.insights(projectId, { metric: 'count', groupBy: 'event_name', days: 30, limit: 50 }, signal),
    [projectId],
  );
  const eventNames = useMemo(() => events.data?.rows.map((r) => r.group) ?? [], [events.data]);
  const chosenEvent = mode === 'events' ? eventName || eventNames[0] : undefined;
  const builds = useApi((signal) => analyticsApi.builds(projectId, { days: 30 }, signal), [projectId]);

  const cells = useApi(
    (signal) =>
      mode === 'events' && !chosenEvent
        ? Promise.resolve([])
        : heatmapApi.cells(
            projectId,
            {
              mapId: map.mapId,
              cellSize,
              days,
              eventName: chosenEvent,
              buildId: buildId || undefined,
            },
            signal,
          ),
    [projectId, map.mapId, cellSize, days, mode, chosenEvent, buildId],
  );

  const metric =
    HEATMAP_METRICS[
      mode === 'events' ? 'events' : PERFORMANCE_METRICS.includes(metricName) ? metricName : 'frame_time'
    ];
  const domain = useMemo(() => domainOf(cells.data ?? [], metric), [cells.data, metric]);
  const totalEvents = (cells.data ?? []).reduce((sum, c) => sum + c.event_count, 0);
  // A link to a place (the builds page's regressions) outlines and reads out the cell there
  // whenever the pointer is not on another one.
  const focused = useMemo(() => {
    const point = parseFocus(focusParam);
    return point && cells.data ? cellAt(cells.data, map, cellSize, point.x, point.y) : undefined;
  }, [focusParam, cells.data, map, cellSize]);
  const shown = hovered ?? focused;

  return (
    <>
      <div className="toolbar" role="group" aria-label="Heatmap settings">
        <SelectField
          label="Map"
          value={map.mapId}
          options={maps.map((m) => ({ value: m.mapId, label: m.name }))}
          onChange={setMapId}
        />
        <Segmented
          label="Mode"
          value={mode}
          options={[
            { value: 'performance', label: 'Performance' },
            { value: 'events', label: 'Events' },
          ]}
          onChange={(m) => {
            setHovered(undefined);
            setMode(m);
          }}
        />
        {mode === 'performance' ? (
          <Segmented
            label="Metric"
            value={metric === HEATMAP_METRICS.events ? 'frame_time' : metricName}
            options={PERFORMANCE_METRICS.map((m) => ({ value: m, label: HEATMAP_METRICS[m].label }))}
            onChange={setMetric}
          />
        ) : (
          <SelectField
            label="Event"
            value={chosenEvent ?? ''}
            disabled={eventNames.length === 0}
            options={
              eventNames.length === 0
                ? [{ value: '', label: events.status === 'loading' ? 'Loading…' : 'No events yet' }]
                : eventNames.map((n) => ({ value: n, label: n }))
            }
            onChange={setEventName}
          />
        )}
        <SelectField
          label="Cell size"
          value={String(cellSize)}
          options={CELL_SIZES.map((c) => ({ value: String(c), label: `${c} units` }))}
          onChange={setCellSize}
        />
        <SelectField
          label="Period"
          value={String(days)}
          options={HEATMAP_DAYS.map((d) => ({ value: String(d), label: d === 1 ? 'Last 24 hours' : `Last ${d} days` }))}
          onChange={setDays}
        />
        <SelectField
          label="Build"
          value={buildId}
          options={[
            { value: '', label: 'All builds' },
            ...(builds.data ?? []).map((b) => ({ value: b.buildId, label: b.buildId })),
          ]}
          onChange={setBuildId}
        />
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            cells.reload();
            events.reload();
          }}
        >
          Refresh
        </button>
      </div>

      <div className="heatmap-layout">
        <AsyncView resource={cells} loadingLabel="Loading heatmap…">
          {(data) => (
            <>
              <HeatmapCanvas
                map={map}
                cells={data}
                cellSize={cellSize}
                metric={metric}
                domain={domain}
                hovered={shown}
                onHover={setHovered}
              />
              {data.length === 0 && (
                <p className="muted small heatmap-empty" role="status">
                  No {mode === 'events' ? `“${chosenEvent ?? ''}” events` : 'performance samples'} on this map in the
                  period. Events appear 20–30 seconds after they are sent.
                </p>
              )}
            </>
          )}
        </AsyncView>
        <div className="heatmap-side">
          <Panel title="Legend">
            <HeatmapLegend metric={metric} domain={domain} />
            <p className="muted small">
              {formatNumber(cells.data?.length ?? 0)} cells · {formatNumber(totalEvents)} events
            </p>
          </Panel>
          <CellReadout cell={shown} cellSize={cellSize} />
          <Panel title="Map">
            <p className="small muted">
              World X {formatNumber(map.worldMinX, 0)} … {formatNumber(map.worldMaxX, 0)}, Y{' '}
              {formatNumber(map.worldMinY, 0)} … {formatNumber(map.worldMaxY, 0)}
            </p>
          </Panel>
        </div>
      </div>
    </>
  );
}
