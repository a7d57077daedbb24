import { join, raw, sql, type ClickHouseReader, type SqlFragment } from '@framedeck/clickhouse';
import { perEntityGrouping } from './grouping-settings.js';
import { dimensionConditions, type DimensionFilter } from './dimension-filter.js';
import type { QuerySource } from './query-source.js';
import { lastDays, projectAndWindow } from './time-window.js';

export const FUNNEL_BY = ['player', 'session'] as const;
export const FUNNEL_DAYS = [7, 14, 30, 90] as const;
export const FUNNEL_LIMITS = { minSteps: 2, maxSteps: 10, maxWindowSeconds: 30 * 86_400 } as const;
export const FUNNEL_DEFAULTS = { by: 'player', days: 30, windowSeconds: 86_400 } as const;

export type FunnelBy = (typeof FUNNEL_BY)[number];

/**
 * Entities the bounds leave open are counted exactly by listing their keys (at most 22
 * characters each in the query text: 20 digits and a separator); past this many in a query, its
 * whole funnel is counted exactly instead. 10,000 keys are ~220 KB, within the server's
 * max_query_size (256 KiB). Listing stays the cheaper way well past a few thousand keys: on the
 * bench's 100 M events, before clickhouse/038, a by-session funnel left 6,071 sessions open in
 * its one query, ~210 ms listed against over a second counted whole.
 */
export const FUNNEL_UNDECIDED_LIMIT = 10_000;
/** The bounds' bucket (funnel_step_hours, clickhouse/034). */
const HOUR_SECONDS = 3_600;
/** Times are packed with a step number below them: 4 bits, so at most 15 steps. */
const STEP_SLOTS = 16;
// A longer step list would overflow the packing silently: refuse to load instead.
if (FUNNEL_LIMITS.maxSteps >= STEP_SLOTS) throw new Error('FUNNEL_LIMITS.maxSteps must stay below STEP_SLOTS');

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
 * How the rollups bound and slice each kind of entity. funnel_step_hours (clickhouse/034) and
 * funnel_steps (027) are sorted by project, name hash, then player hash; the session hash comes
 * later.
 *  - sliced: whether the entities are split into slices by key hash (where the server gains by
 *    it, ServerEngine.funnelSlices). A slice of the player hashes is a range of the sorting key,
 *    read by its slice alone; a slice of the session hashes would read every row again. Measured
 *    on the bench's 100 M events (18.16, two cores, docs/performance.md, twenty-second run): the
 *    by-session bounds in two halves at once took ~400 ms, in one query on both threads ~300.
 *  - upper: the upper bound. 'hour marks' orders the steps by hour (windowFunnel over the marks,
 *    boundedLevels). 'steps present' is the number of leading steps the entity has at all in the
 *    range, whatever their order: a session lasts an hour or two, so hour marks order its steps
 *    little more, and the marks' windowFunnel was a quarter of the by-session bounds' cost (301
 *    → 240 ms, with the same 6,071 of 250,000 sessions left open, before clickhouse/038). A
 *    player's steps spread over days, where the order of hours decides many more.
 *  - middleLasts: whether the lower bound reads the middle steps' last event of each hour. It is
 *    needed only by a chain whose previous step came after the step's first event from the half
 *    hour on (edge 2), so leaving it out leaves a few more entities open. For a session it pays:
 *    two hours of a three-step funnel are then at most eight events, which windowFunnel holds in
 *    its first allocation (a ninth reallocates). On the bench's 100 M events the by-session
 *    bounds took ~255 ms instead of ~305 and left 34 sessions open instead of 15, counted by
 *    list in the same time (docs/performance.md, twenty-fifth run). A player's dozens of events
 *    a month reallocate either way: there it saved nothing and left no player open either way.
 */
const ENTITY_BOUNDS: Record<
  FunnelBy,
  { sliced: boolean; upper: 'hour marks' | 'steps present'; middleLasts: boolean }
> = {
  player: { sliced: true, upper: 'hour marks', middleLasts: true },
  session: { sliced: false, upper: 'steps present', middleLasts: false },
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

/** A funnel's levels: entities (players or sessions) per deepest step reached, above 0. */
type LevelRows = Array<{ level: number; entities: number }>;

/**
 * Ordered funnel with ClickHouse's windowFunnel: for each player (non-empty player_id) or
 * session, the deepest step reached in order with every step within `windowSeconds` of the
 * first, over the events of the platform, build and source filter (a step on another platform
 * does not count). NOTE: windowFunnel on 18.16 takes a DateTime, so ordering and the window have
 * second precision: two steps in the same second count in either order.
 *
 * From the rollups, in two steps when the bounds can serve it (boundable): funnel_step_hours
 * (clickhouse/034) bounds every entity's level (boundedLevels), and only the entities whose
 * bounds differ are counted exactly from funnel_steps, by id. Too many of them
 * (FUNNEL_UNDECIDED_LIMIT), or a funnel the bounds cannot serve, and the whole funnel is counted
 * from funnel_steps. Where the server gains by it (ServerEngine.funnelSlices: 18.16), the
 * entities are split by key hash into slices, each counted that way, at once, each query on its
 * share of the server's threads; an entity is in one slice, so the slices' levels add up.
 * `events` is the plain query the tests hold both equal to.
 */
export async function queryFunnel(
  clickhouse: ClickHouseReader,
  q: FunnelQuery,
  source: QuerySource = 'rollups',
  undecidedLimit = FUNNEL_UNDECIDED_LIMIT,
): Promise<FunnelResult> {
  // One "now" for both queries: the bounds and the exact count must cover the same days.
  q = { ...q, now: q.now ?? new Date() };
  const result = (rows: LevelRows): FunnelResult => ({
    by: q.by,
    windowSeconds: q.windowSeconds,
    steps: toSteps(q.steps, rows),
  });
  if (source === 'events') return result(await exactLevels(clickhouse, q, SOURCE.events));
  // Concurrent queries over slices of the entities, where the server gains by it (ServerEngine)
  // and a slice reads rows of its own (ENTITY_BOUNDS); otherwise one query on every thread.
  const { count, threadsEach } = (await clickhouse.engine()).funnelSlices;
  const slices = ENTITY_BOUNDS[q.by].sliced ? entitySlices(count, threadsEach) : entitySlices(1);
  const levels = await Promise.all(slices.map((slice) => sliceLevels(clickhouse, q, slice, undecidedLimit)));
  // toSteps adds up rows of the same level: one list of every slice's levels is enough.
  return result(levels.flat());
}

/** The levels of the entities whose key hashes fall in `slice`, from the rollups. */
async function sliceLevels(
  clickhouse: ClickHouseReader,
  q: FunnelQuery,
  slice: EntitySlice,
  undecidedLimit: number,
): Promise<LevelRows> {
  if (!boundable(q)) return exactLevels(clickhouse, q, SOURCE.rollups, { slice });
  const bounds = await boundedLevels(clickhouse, q, undecidedLimit, slice);
  if (bounds.undecided === 'too many') return exactLevels(clickhouse, q, SOURCE.rollups, { slice });
  const counted =
    bounds.undecided.length > 0
      ? await exactLevels(clickhouse, q, SOURCE.rollups, { only: bounds.undecided, slice })
      : [];
  return [...bounds.decided, ...counted];
}

/**
 * Whether the hourly bounds can serve the funnel: a window of at least their hour (shorter, the
 * hour marks bound little: on the bench's data a 1-minute window left 77 % of the players open,
 * and counting them by list cost more than the single exact query), and no event named twice
 * in the steps (an event is then two steps, which the bounds do not model).
 */
function boundable(q: FunnelQuery): boolean {
  return q.windowSeconds >= HOUR_SECONDS && new Set(q.steps).size === q.steps.length;
}

/**
 * Every entity's deepest level from its step events (windowFunnel); of the rollups, optionally
 * only the entities whose keys are listed (their hashes, as decimal strings from boundedLevels:
 * the slice then gives only its threads) or fall in a slice.
 */
async function exactLevels(
  clickhouse: ClickHouseReader,
  q: FunnelQuery,
  { table, range, nameColumn, stepName, entity: entities }: FunnelSource,
  { only, slice }: { only?: readonly string[]; slice?: EntitySlice } = {},
): Promise<LevelRows> {
  const entity = entities[q.by];
  const steps = q.steps.map(stepName);
  const conditions = join(steps.map((step) => sql`${nameColumn} = ${step}`));
  // The listed keys go to PREWHERE. Each listed player is a short range of every step's rows in
  // every part, and each such range makes the server read whole granules (8,192 rows) around it:
  // for 32 players at 100 M events, 5.2 M rows of 1,970 matching. In PREWHERE only the key
  // column is read for those granules, the others only where a listed key is: measured on the
  // bench's 100 M set, 91 → 65 ms, and 35 ms on the same rows in fewer parts
  // (docs/performance.md, twentieth run). BigInt refuses anything but an integer: the keys go into
  // the text as numbers.
  const listed = only ? sql`PREWHERE ${entity.key} IN (${join(only.map((key) => sql`${BigInt(key)}`))})` : sql``;
  return clickhouse.rows(sql`SELECT level, count() AS entities
          FROM (
            SELECT ${entity.key}, windowFunnel(${q.windowSeconds})(timestamp, ${conditions}) AS level
              FROM ${table} ${listed}
             WHERE ${range(q.projectId, lastDays(q.days, q.now).from)}
               AND ${nameColumn} IN (${join(steps)}) AND ${entity.present}${dimensionConditions(q)}${sliceCondition(entity.key, only ? undefined : slice)}
             GROUP BY ${entity.key}
          )
         WHERE level > 0
         GROUP BY level
         ${perEntityGrouping(slice?.threads)}`);
}

type Bounds = { decided: LevelRows; undecided: readonly string[] | 'too many' };

/**
 * A range of the entities' 64-bit key hashes: from `from`, below `below` (to the end when absent),
 * and the threads each of its queries may use (the server's default when absent).
 */
export type EntitySlice = { from: bigint; below?: bigint; threads?: number };

/** `count` equal, adjoining ranges covering every 64-bit hash. */
export function entitySlices(count: number, threads?: number): EntitySlice[] {
  const width = 2n ** 64n / BigInt(count);
  return Array.from({ length: count }, (_, i) => ({
    from: width * BigInt(i),
    ...(i < count - 1 ? { below: width * BigInt(i + 1) } : {}),
    ...(threads !== undefined ? { threads } : {}),
  }));
}

/** The condition on a UInt64 key hash that keeps the slice (none for the whole range). */
function sliceCondition(key: SqlFragment, slice: EntitySlice | undefined): SqlFragment {
  if (!slice) return sql``;
  const above = slice.from > 0n ? sql` AND ${key} >= ${slice.from}` : sql``;
  return slice.below === undefined ? above : sql`${above} AND ${key} < ${slice.below}`;
}

/**
 * Each entity's level bounded from funnel_step_hours, whose rows hold the first and the last
 * time (edge 0, 1) each step event happened per entity and hour, and the first at or after the
 * half hour (edge 2, clickhouse/038); an entity whose bounds meet has that level.
 *  - lower: windowFunnel over those events but the first step's last and half-hour ones, the
 *    last step's first and half-hour ones, and for sessions the middle steps' last ones
 *    (ENTITY_BOUNDS). These are real events, so a chain among them is a real chain. The half
 *    hour's first catches a chain through an hour's middle, which the first and last events miss
 *    when a step happened both before the previous step's first event and after the next step's
 *    last. The first and last steps' four add least: the window (an hour or more,
 *    boundable) cannot bind inside an hour, so there the first first-step event starts every
 *    chain a later one starts, and the last last-step event ends every chain an earlier one
 *    ends; only chains across hours can need them. On the bench's 100 M events the by-session
 *    bounds left the same 13 sessions open either way, and the by-player ones no player
 *    (docs/performance.md, twenty-second run; for the first and last events alone, the
 *    eighteenth). The rows no bound reads are left out in WHERE, before the grouping: there the
 *    by-session bounds took 320 ms instead of 405.
 *    Times are packed as (t − from) × 16 + (steps − step): in one second a later step sorts
 *    first, so a tie never chains here, whatever order the exact query gives ties (sound), and
 *    the window × 16 keeps exactly the chains within the window.
 *  - upper, by ENTITY_BOUNDS: 'hour marks' is windowFunnel over (hour, step) marks (the
 *    first-event rows) packed as hour × 16 + step, with the window widened to its whole hours
 *    plus one: every real chain is a chain of marks (steps of one hour in order, first and last
 *    hour at most ⌊window / 1 h⌋ + 1 apart). 'steps present' is the number of leading steps
 *    among the entity's rows (of the last step, its last-event rows: 034 writes a last with
 *    every first): a chain to step L has an event of every step up to L. It counts the
 *    trailing ones of a bit per step present (step k → bit k − 1): adding one to them carries
 *    into the lowest zero bit, 2^L, whose log2 is exact.
 * The range starts at a UTC midnight (lastDays), so whole hours cover exactly the events'.
 */
async function boundedLevels(
  clickhouse: ClickHouseReader,
  q: FunnelQuery,
  undecidedLimit: number,
  slice: EntitySlice,
): Promise<Bounds> {
  const from = lastDays(q.days, q.now).from;
  const { entity: entities, stepName } = SOURCE.rollups;
  const key = entities[q.by];
  const names = join(q.steps.map(stepName));
  const stepNumbers = join(q.steps.map((_, i) => raw(String(i + 1))));
  const marks = join(q.steps.map((_, i) => raw(`step = ${i + 1}`)));
  const fromSeconds = Math.floor(from.getTime() / 1000);
  const lowerWindow = q.windowSeconds * STEP_SLOTS;
  const upperWindow = (Math.floor(q.windowSeconds / HOUR_SECONDS) + 1) * STEP_SLOTS + STEP_SLOTS - 1;
  const byMarks = ENTITY_BOUNDS[q.by].upper === 'hour marks';
  const lastStep = q.steps.length;
  const packedTime = sql`toDateTime((t - ${fromSeconds}) * ${STEP_SLOTS} + ${lastStep} - step)`;
  // The hour marks are the first-event rows: the last step's are read by them, not by the lower bound.
  const lower = byMarks
    ? sql`windowFunnelIf(${lowerWindow})(${packedTime}, ${marks}, NOT (step = ${lastStep} AND edge = 0))`
    : sql`windowFunnel(${lowerWindow})(${packedTime}, ${marks})`;
  const present = sql`groupBitOr(toUInt16(bitShiftLeft(1, step - 1)))`;
  const upper = byMarks
    ? sql`windowFunnelIf(${upperWindow})(toDateTime(toRelativeHourNum(hour) * ${STEP_SLOTS} + step), ${marks}, edge = 0)`
    : sql`toUInt8(log2(bitAnd(${present} + 1, bitNot(${present}))))`;
  // Only the rows a bound reads are grouped: every row grouped costs, whether a bound takes it or not.
  const firstName = stepName(q.steps[0]!);
  const lastName = stepName(q.steps[lastStep - 1]!);
  const lastEdges = byMarks ? raw('IN (0, 1)') : raw('= 1');
  // Of two steps every row is the first's or the last's: no middle step, no condition to add.
  const middleRows =
    ENTITY_BOUNDS[q.by].middleLasts || lastStep === 2
      ? sql``
      : sql` AND (event_name_hash IN (${firstName}, ${lastName}) OR edge != 1)`;
  const boundsRows = sql`(event_name_hash != ${firstName} OR edge = 0) AND (event_name_hash != ${lastName} OR edge ${lastEdges})${middleRows}`;
  const rows = await clickhouse.rows<{ level: number; entities: number; undecided: string[] }>(
    sql`SELECT level, count() AS entities, groupArrayIf(${undecidedLimit + 1})(toString(entity), level = -1) AS undecided
          FROM (
            SELECT entity, if(lower = upper, toInt8(lower), toInt8(-1)) AS level
              FROM (
                SELECT entity,
                       ${lower} AS lower,
                       ${upper} AS upper
                  FROM (
                    SELECT ${key.key} AS entity, hour, transform(event_name_hash, [${names}], [${stepNumbers}], 0) AS step,
                           toUInt32(seen) AS t, edge
                      FROM funnel_step_hours
                     WHERE project_id = toUUID(${q.projectId}) AND hour >= ${from}
                       AND event_name_hash IN (${names}) AND ${boundsRows}
                       AND ${key.present}${sliceCondition(key.key, slice)}${dimensionConditions(q)}
                  )
                 GROUP BY entity
              )
          )
         WHERE level != 0
         GROUP BY level
         ${perEntityGrouping(slice.threads)}`,
  );
  const open = rows.find((r) => Number(r.level) === -1)?.undecided ?? [];
  return {
    decided: rows
      .filter((r) => Number(r.level) > 0)
      .map((r) => ({ level: Number(r.level), entities: Number(r.entities) })),
    undecided: open.length > undecidedLimit ? 'too many' : open,
  };
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
