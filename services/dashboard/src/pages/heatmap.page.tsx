import { useEffect, useMemo, useState } from 'react';
import { alertsApi } from '../api/alerts.api';
import { analyticsApi } from '../api/analytics.api';
import { CELL_SIZES, HEATMAP_DAYS, heatmapApi, type HeatmapCell, type WorstArea } from '../api/heatmap.api';
import { mapsApi, type GameMap } from '../api/maps.api';
import { Link, useRouter, useSearchParam } from '../app/router';
import { allowedOr } from '../app/search-values';
import { AsyncView } from '../components/async-view';
import { Segmented, SelectField } from '../components/choice-controls';
import { formatNumber } from '../components/format';
import { PageHeader, Panel } from '../components/page-header';
import { EmptyState } from '../components/status-views';
import { AnalyticsFilterControls, SourceScope, useAnalyticsFilters } from '../filters/analytics-filters';
import { finiteNumber, oneOf, wholeNumberIn } from '../filters/param-checks';
import { NumberParamField } from '../filters/number-param-field';
import { RejectedParamsNote } from '../filters/rejected-params-note';
import { useCheckedSearchParam } from '../filters/use-checked-search-param';
import { useApi } from '../hooks/use-api';
import { useDebounced } from '../hooks/use-debounced';
import { HeatmapCanvas } from '../heatmap/heatmap-canvas';
import { cellAt } from '../heatmap/heatmap-geometry';
import { parseFocus } from '../heatmap/heatmap-link';
import { CellReadout, HeatmapLegend } from '../heatmap/heatmap-legend';
import { domainOf, HEATMAP_METRICS, PERFORMANCE_METRICS, type HeatmapMetric } from '../heatmap/heatmap-metrics';
import type { HeatmapScale } from '../heatmap/heatmap-scale';
import { bandLimits, defaultProfile } from '../heatmap/threshold-bands';
import { WorstAreasPanel } from '../heatmap/worst-areas-panel';

// The API's default and range (MIN_SAMPLES of its worst areas and builds comparison): with
// fewer frame samples than this, a cell's average says more about who happened to pass there
// than about the game.
const DEFAULT_MIN_SAMPLES = 30;
const checkMinSamples = wholeNumberIn(1, 100_000);
const WORST_AREAS_LIMIT = 10;

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

/**
 * Links made before the page took the API's `buildId` (the Builds page's regressions and
 * `framedeck perf-diff` printed `build=`, and may sit in CI logs): a `build=` is rewritten to
 * `buildId=` once, rather than silently showing every build.
 */
function useLegacyBuildParam() {
  const { search, pathname, navigate } = useRouter();
  const legacy = search.get('build');
  useEffect(() => {
    if (legacy === null) return;
    const params = new URLSearchParams(window.location.search);
    params.delete('build');
    if (!params.has('buildId')) params.set('buildId', legacy);
    navigate(`${pathname}?${params.toString()}`, { replace: true });
  }, [legacy, pathname, navigate]);
  return legacy !== null;
}

function HeatmapExplorer({ projectId, maps }: { projectId: string; maps: GameMap[] }) {
  const rewriting = useLegacyBuildParam();
  const [mapId, setMapId] = useSearchParam('mapId', maps[0]!.mapId);
  const [mode, setMode, modeRejected] = useCheckedSearchParam('mode', 'performance', oneOf(['performance', 'events']));
  const [metricName, setMetric, metricRejected] = useCheckedSearchParam(
    'metric',
    'frame_time',
    oneOf(PERFORMANCE_METRICS),
  );
  const [eventName, setEventName] = useSearchParam('event', '');
  const [cellSizeParam, setCellSize, cellSizeRejected] = useCheckedSearchParam('cellSize', '25', oneOf(CELL_SIZES));
  const [daysParam, setDays, daysRejected] = useCheckedSearchParam('days', '7', oneOf(HEATMAP_DAYS));
  const [minSamplesParam, setMinSamples, minSamplesRejected] = useCheckedSearchParam(
    'minSamples',
    String(DEFAULT_MIN_SAMPLES),
    checkMinSamples,
  );
  const [zMinParam, setZMin, zMinRejected] = useCheckedSearchParam('zMin', '', finiteNumber);
  const [zMaxParam, setZMax, zMaxRejected] = useCheckedSearchParam('zMax', '', finiteNumber);
  const [profileId, setProfileId] = useSearchParam('profile', '');
  const [focusParam, setFocus] = useSearchParam('focus', '');
  const filters = useAnalyticsFilters();
  const [hovered, setHovered] = useState<HeatmapCell | undefined>();

  const cellSize = allowedOr(cellSizeParam, CELL_SIZES, 25);
  const days = allowedOr(daysParam, HEATMAP_DAYS, 7);
  const minSamples = useDebounced(Number(minSamplesParam), 400);
  const zRange = useMemo(() => {
    const zMin = zMinParam === '' ? undefined : Number(zMinParam);
    const zMax = zMaxParam === '' ? undefined : Number(zMaxParam);
    return zMin !== undefined && zMax !== undefined && zMin > zMax ? 'empty' : { zMin, zMax };
  }, [zMinParam, zMaxParam]);
  const zQuery = zRange === 'empty' ? {} : zRange;

  const map = maps.find((m) => m.mapId === mapId) ?? maps[0]!;
  const events = useApi(
    (signal) =>
      analyticsApi.insights(projectId, { metric: 'count', groupBy: 'event_name', days: 30, limit: 50 }, signal),
    [projectId],
  );
  const eventNames = useMemo(() => events.data?.rows.map((r) => r.group) ?? [], [events.data]);
  const chosenEvent = mode === 'events' ? eventName || eventNames[0] : undefined;
  const profiles = useApi((signal) => alertsApi.thresholdProfiles(projectId, signal), [projectId]);
  const profile = profiles.data?.find((p) => p.id === profileId) ?? defaultProfile(profiles.data ?? []);

  // While an old link is rewritten or the z range is empty, nothing is asked of the API.
  const blocked = rewriting || zRange === 'empty';
  const cells = useApi(
    (signal) =>
      blocked || (mode === 'events' && !chosenEvent)
        ? Promise.resolve([])
        : heatmapApi.cells(
            projectId,
            { mapId: map.mapId, cellSize, days, eventName: chosenEvent, ...filters.query, ...zQuery },
            signal,
          ),
    [projectId, map.mapId, cellSize, days, mode, chosenEvent, filters.query, zMinParam, zMaxParam, blocked],
  );
  const worstAreas = useApi(
    (signal) =>
      blocked || mode === 'events'
        ? Promise.resolve<WorstArea[]>([])
        : heatmapApi.worstAreas(
            projectId,
            { mapId: map.mapId, days, cellSize, minSamples, limit: WORST_AREAS_LIMIT, ...filters.query, ...zQuery },
            signal,
          ),
    [projectId, map.mapId, cellSize, days, mode, minSamples, filters.query, zMinParam, zMaxParam, blocked],
  );

  const metric = HEATMAP_METRICS[mode === 'events' ? 'events' : (metricName as HeatmapMetric)];
  const scale = useMemo((): HeatmapScale | undefined => {
    if (!metric.limits) {
      const domain = domainOf(cells.data ?? [], metric);
      return domain && { kind: 'count', metric, domain };
    }
    return (
      profile && {
        kind: 'bands',
        metric,
        limits: bandLimits(profile, metric.limits, metric.higherIsBetter),
        minSamples,
      }
    );
  }, [cells.data, metric, profile, minSamples]);
  const totalEvents = (cells.data ?? []).reduce((sum, c) => sum + c.event_count, 0);
  // A link to a place (the builds page's regressions, a worst area) outlines and reads out the
  // cell there whenever the pointer is not on another one.
  const focus = useMemo(() => parseFocus(focusParam), [focusParam]);
  const focused = useMemo(
    () => (focus && cells.data ? cellAt(cells.data, map, cellSize, focus.x, focus.y) : undefined),
    [focus, cells.data, map, cellSize],
  );
  const shown = hovered ?? focused;

  return (
    <div className="heatmap-explorer">
      <RejectedParamsNote
        rejected={[
          modeRejected,
          metricRejected,
          cellSizeRejected,
          daysRejected,
          minSamplesRejected,
          zMinRejected,
          zMaxRejected,
          ...filters.rejected,
        ]}
      />
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
          <SelectField
            label="Metric"
            value={metricName}
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
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            cells.reload();
            worstAreas.reload();
            events.reload();
          }}
        >
          Refresh
        </button>
      </div>
      <div className="toolbar" role="group" aria-label="Heatmap filters">
        <AnalyticsFilterControls projectId={projectId} filters={filters} />
        <NumberParamField label="Z from" value={zMinParam} check={finiteNumber} onCommit={setZMin} placeholder="any" />
        <NumberParamField label="Z to" value={zMaxParam} check={finiteNumber} onCommit={setZMax} placeholder="any" />
        <NumberParamField
          label="Min samples"
          value={minSamplesParam}
          check={checkMinSamples}
          onCommit={(v) => setMinSamples(v || String(DEFAULT_MIN_SAMPLES))}
        />
        {mode === 'performance' && (
          <SelectField
            label="Thresholds"
            value={profile?.id ?? ''}
            disabled={!profile}
            options={(profiles.data ?? []).map((p) => ({
              value: p.id,
              label: p.isDefault ? `${p.name} (default)` : p.name,
            }))}
            onChange={setProfileId}
          />
        )}
      </div>
      <SourceScope filters={filters} />
      {zRange === 'empty' && (
        <div className="notice notice-warn" role="status">
          <strong>The height range is empty</strong> “from” ({zMinParam}) is above “to” ({zMaxParam}): nothing is shown
          until it is a range.
        </div>
      )}

      <div className="heatmap-layout">
        <AsyncView resource={cells} loadingLabel="Loading heatmap…">
          {(data) => (
            <>
              <HeatmapCanvas
                map={map}
                cells={data}
                cellSize={cellSize}
                scale={scale}
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
          <div className="heatmap-side-info">
            <Panel title="Legend">
              <HeatmapLegend scale={scale} profileName={profile?.name} />
              <p className="muted small">
                {formatNumber(cells.data?.length ?? 0)} cells · {formatNumber(totalEvents)} events · world X{' '}
                {formatNumber(map.worldMinX, 0)} … {formatNumber(map.worldMaxX, 0)}, Y {formatNumber(map.worldMinY, 0)}{' '}
                … {formatNumber(map.worldMaxY, 0)}
              </p>
            </Panel>
            <CellReadout cell={shown} cellSize={cellSize} scale={scale} />
          </div>
          {mode === 'performance' && (
            <WorstAreasPanel
              areas={worstAreas}
              minSamples={minSamples}
              focus={focus}
              onFocus={(area) => {
                setHovered(undefined);
                setFocus(`${area.x},${area.y}`);
              }}
            />
          )}
        </div>
      </div>
    </div>
  );
}
