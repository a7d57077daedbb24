import { useMemo } from 'react';
import { analyticsApi, type AnalyticsFilterQuery } from '../api/analytics.api';
import { SelectField } from '../components/choice-controls';
import { useApi } from '../hooks/use-api';
import { label, oneOf } from './param-checks';
import { useCheckedSearchParam, type RejectedParam } from './use-checked-search-param';

/** Which events a view counts: players', automated runs' (events:synthetic keys), or both (the API's default). */
export type SourceFilter = '' | 'player' | 'automated';

const SOURCES: { value: SourceFilter; label: string }[] = [
  { value: '', label: 'Players + automated runs' },
  { value: 'player', label: 'Players only' },
  { value: 'automated', label: 'Automated runs only' },
];

export type AnalyticsFilters = {
  platform: string;
  buildId: string;
  source: SourceFilter;
  setPlatform: (value: string) => void;
  setBuildId: (value: string) => void;
  setSource: (value: SourceFilter) => void;
  /** Only the filters that are set, ready to spread into an API query. */
  query: AnalyticsFilterQuery;
  rejected: (RejectedParam | undefined)[];
};

// The API's limits on the filter values (builds.route.ts: platform ≤ 64, build ids ≤ 128).
const checkPlatform = label(64);
const checkBuildId = label(128);
const checkSource = oneOf(['player', 'automated']);
// How far back the filters' choices look: the longest period any analytics page offers.
const OPTION_DAYS = 90;

/** platform, buildId and source from the URL (shareable), each checked as the API would. */
export function useAnalyticsFilters(): AnalyticsFilters {
  const [platform, setPlatform, platformRejected] = useCheckedSearchParam('platform', '', checkPlatform);
  const [buildId, setBuildId, buildRejected] = useCheckedSearchParam('buildId', '', checkBuildId);
  const [source, setSource, sourceRejected] = useCheckedSearchParam('source', '', checkSource);
  const query = useMemo<AnalyticsFilterQuery>(
    () => ({
      ...(platform && { platform }),
      ...(buildId && { buildId }),
      ...(source && { source: source as 'player' | 'automated' }),
    }),
    [platform, buildId, source],
  );
  return {
    platform,
    buildId,
    source: source as SourceFilter,
    setPlatform,
    setBuildId,
    setSource,
    query,
    rejected: [platformRejected, buildRejected, sourceRejected],
  };
}

/** The platforms and builds seen in the project (any event, last 90 days), as filter choices. */
function useFilterChoices(projectId: string) {
  const load = (groupBy: 'platform' | 'build_id') => (signal: AbortSignal) =>
    analyticsApi.insights(projectId, { metric: 'count', groupBy, days: OPTION_DAYS, limit: 50 }, signal);
  const platforms = useApi(load('platform'), [projectId]);
  const builds = useApi(load('build_id'), [projectId]);
  return { platforms: platforms.data?.rows ?? [], builds: builds.data?.rows ?? [] };
}

/** A chosen value stays selectable even when the choices do not list it (a shared link to an old build). */
function withCurrent(values: string[], current: string) {
  return current && !values.includes(current) ? [...values, current] : values;
}

/** Platform, build and source selects, for a page's toolbar. */
export function AnalyticsFilterControls({ projectId, filters }: { projectId: string; filters: AnalyticsFilters }) {
  const choices = useFilterChoices(projectId);
  const platforms = withCurrent(
    choices.platforms.map((r) => r.group),
    filters.platform,
  );
  const builds = withCurrent(
    choices.builds.map((r) => r.group),
    filters.buildId,
  );
  return (
    <>
      <SelectField
        label="Platform"
        value={filters.platform}
        options={[{ value: '', label: 'All platforms' }, ...platforms.map((p) => ({ value: p, label: p }))]}
        onChange={filters.setPlatform}
      />
      <SelectField
        label="Build"
        value={filters.buildId}
        options={[{ value: '', label: 'All builds' }, ...builds.map((b) => ({ value: b, label: b }))]}
        onChange={filters.setBuildId}
      />
      <SelectField label="Source" value={filters.source} options={SOURCES} onChange={filters.setSource} />
    </>
  );
}

/** Says which events the view counts, so a chart of automated runs is never mistaken for players. */
export function SourceScope({ filters }: { filters: AnalyticsFilters }) {
  const parts = [
    SOURCES.find((s) => s.value === filters.source)!.label,
    filters.platform ? `platform ${filters.platform}` : 'all platforms',
    filters.buildId ? `build ${filters.buildId}` : 'all builds',
  ];
  return (
    <p className="muted small source-scope" data-testid="source-scope">
      Includes: {parts.join(' · ')}
    </p>
  );
}
