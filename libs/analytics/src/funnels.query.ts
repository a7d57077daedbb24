import { join, raw, sql, type ClickHouseReader, type SqlFragment } from '@framedeck/clickhouse';
import { dimensionConditions, type DimensionFilter } from './dimension-filter.js';
import type { QuerySource } from './query-source.js';
import { lastDays, projectAndWindow } from './time-window.js';

export const FUNNEL_BY = ['player', 'session'] as const;
export const FUNNEL_DAYS = [7, 14, 30, 90] as const;
export const FUNNEL_LIMITS = { minSteps: 2, maxSteps: 10, maxWindowSeconds: 30 * 86_400 } as const;
export const FUNNEL_DEFAULTS = { by: 'player', days: 30, windowSeconds: 86_400 } as const;

export type FunnelBy = (typeof FUNNEL_BY)[number];

export type FunnelQuery = {
  projectId: string;
  /** Ordered event names. */
  steps: readonly string[];
  /** A journey counts at step i only if it reached step i within this many seconds of step 1. */
  windowSeconds: number;
  by: FunnelBy;
  days: number;
  now?: Date;
} & DimensionFilter;

export type FunnelStep = {
  eventName: string;
  /** Players (or sessions) that reached this step, in order, within the window. */
  count: number;
  /** count / count of step 1 (1 for step 1; 0 when nobody entered). */
  conversion: number;
  /** count / count of the previous step. */
  conversionFromPrevious: number;
};

export type FunnelResult = { by: FunnelBy; windowSeconds: number; steps: FunnelStep[] };

type FunnelSource = {
  table: SqlFragment;
  /** The project and time range, in the form the table's sorting key prunes by. */
  range: (projectId: string, from: Date) => SqlFragment;
  /** The column a step matches, and a step's name as a value of that column. */
  nameColumn: SqlFragment;
  stepName: (name: string) => SqlFragment;
  entity: Record<FunnelBy, { key: SqlFragment; present: SqlFragment }>;
};

/**
 * What a funnel reads, per source. funnel_steps (clickhouse/027, 029) groups on the ids' 64-bit
 * hashes, computed at insert (a collision between two of a project's players is ~n²/2^65: 10^-10
 * for 50,000 players), and matches steps by the event name's hash, its sorting key: the range,
 * the filter and each step's condition are integer comparisons, where comparing names per row was
 * a third of the funnel's cost (027). The events are matched on the ids and names themselves.
 */
const SOURCE: Record<QuerySource, FunnelSource> = {
  rollups: {
    table: raw('funnel_steps'),
    // Its sorting key has no day (the events' has): projectAndWindow's repeated toDate()
    // condition would only cost a date conversion per step event.
    range: (projectId, from) => sql`project_id = toUUID(${projectId}) AND timestamp >= ${from}`,
    nameColumn: raw('event_name_hash'),
    stepName: (name) => sql`cityHash64(${name})`,
    entity: {
      player: { key: raw('player_hash'), present: raw("player_hash != cityHash64('')") },
      session: { key: raw('session_hash'), present: raw("session_hash != cityHash64('')") },
    },
  },
  events: {
    table: raw('events'),
    range: (projectId, from) => projectAndWindow(projectId, { from }),
    nameColumn: raw('event_name'),
    stepName: (name) => sql`${name}`,
    entity: {
      player: { key: raw('player_id'), present: raw("player_id != ''") },
      session: { key: raw('session_id'), present: raw("session_id != ''") },
    },
  },
};

/**
 * Ordered funnel with ClickHouse's windowFunnel: for each player (non-empty player_id) or
 * session, the deepest step reached in order with every step within `windowSeconds` of the
 * first, over the events of the platform, build and source filter (a step on another platform
 * does not count). NOTE: windowFunnel on 18.16 takes a DateTime, so ordering and the window have
 * second precision: two steps in the same second count in either order.
 *
 * Served from funnel_steps (clickhouse/018, re-keyed by 027/029): the same events, sorted by
 * the name's hash and the player, so each step's rows reach the aggregation player after player
 * (the cost still grows with the step events in range: no aggregate keeps an entity's order of
 * events). `events` is the plain query the tests hold it equal to.
 */
export async function queryFunnel(
  clickhouse: ClickHouseReader,
  q: FunnelQuery,
  source: QuerySource = 'rollups',
): Promise<FunnelResult> {
  const { table, range, nameColumn, stepName, entity: entities } = SOURCE[source];
  const entity = entities[q.by];
  const steps = q.steps.map(stepName);
  const conditions = join(steps.map((step) => sql`${nameColumn} = ${step}`));
  const rows = await clickhouse.rows<{ level: number; entities: number }>(sql`SELECT level, count() AS entities
          FROM (
            SELECT ${entity.key}, windowFunnel(${q.windowSeconds})(timestamp, ${conditions}) AS level
              FROM ${table}
             WHERE ${range(q.projectId, lastDays(q.days, q.now).from)}
               AND ${nameColumn} IN (${join(steps)}) AND ${entity.present}${dimensionConditions(q)}
             GROUP BY ${entity.key}
          )
         WHERE level > 0
         GROUP BY level`);
  return { by: q.by, windowSeconds: q.windowSeconds, steps: toSteps(q.steps, rows) };
}

/** Entities whose deepest level is L reached every step up to L. */
export function toSteps(
  steps: readonly string[],
  rows: ReadonlyArray<{ level: number; entities: number }>,
): FunnelStep[] {
  const counts = steps.map((_, i) =>
    rows.filter((r) => Number(r.level) >= i + 1).reduce((s, r) => s + Number(r.entities), 0),
  );
  return steps.map((eventName, i) => ({
    eventName,
    count: counts[i]!,
    conversion: counts[0]! > 0 ? counts[i]! / counts[0]! : 0,
    conversionFromPrevious: i === 0 ? (counts[0]! > 0 ? 1 : 0) : counts[i - 1]! > 0 ? counts[i]! / counts[i - 1]! : 0,
  }));
}
