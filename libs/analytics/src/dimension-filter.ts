import { sql, type SqlFragment } from '@framedeck/clickhouse';

/** Who produced an event: a player, or an automated run (bots, CI; what events:synthetic keys send). */
export const EVENT_SOURCES = ['player', 'automated'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

/** Longest accepted filter values: a platform name, a build id. */
export const DIMENSION_FILTER_LIMITS = { platform: 64, buildId: 128 } as const;

/**
 * The platform, build and source filters every analytics view takes. An absent field keeps
 * every value (the spec's endpoints count every platform, build and source).
 */
export type DimensionFilter = {
  platform?: string | undefined;
  buildId?: string | undefined;
  source?: EventSource | undefined;
};

export function hasDimensionFilter(f: DimensionFilter): boolean {
  return f.platform !== undefined || f.buildId !== undefined || f.source !== undefined;
}

/**
 * The filter as ` AND …` conditions, the same on events and on every rollup that keeps the
 * columns (platform, build_id, source). `player` is every event not marked automated: events
 * whose SDK sent no source (stored `unspecified`) come from games, while automated runs are
 * always marked (a synthetic key forces it).
 */
export function dimensionConditions(f: DimensionFilter): SqlFragment {
  const platform = f.platform !== undefined ? sql` AND platform = ${f.platform}` : sql``;
  const build = f.buildId !== undefined ? sql` AND build_id = ${f.buildId}` : sql``;
  const source =
    f.source === undefined
      ? sql``
      : f.source === 'automated'
        ? sql` AND source = 'automated'`
        : sql` AND source != 'automated'`;
  return sql`${platform}${build}${source}`;
}
