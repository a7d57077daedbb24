import {
  identifier,
  join,
  localTable,
  sql,
  type ClickHouseReader,
  type ClickHouseWriter,
  type SqlFragment,
  type WriterCluster,
} from '@framedeck/clickhouse';
import { stringList } from './sql-lists.js';

/**
 * Bounds of erasure:
 *  - one request: its ids travel inside one ALTER statement, which must stay well below
 *    ClickHouse's max_query_size (256 KiB): 500 × 256 characters ≈ 130 KB;
 *  - one sweep: the same bound for all the requests it coalesces (a request is never split);
 *  - one tenant: at most this many jobs, and players in them, running at once (429 beyond),
 *    so one tenant cannot make every sweep rewrite the shared tables for its requests alone.
 */
export const ERASURE_LIMITS = {
  maxPlayers: 500,
  maxPlayerIdLength: 256,
  maxPlayersPerSweep: 500,
  perTenant: { maxRunningJobs: 5, maxRunningPlayers: 1000 },
} as const;

/**
 * Every table that holds per-player rows: the events, the player_days and player_activity
 * sets (clickhouse/003, 004), the funnels' copy of the events (018) and its hourly bounds
 * (034). The rollup_* tables hold no player id (counts, sums and quantile states per cell and
 * day), so erasure has nothing to remove there.
 */
export const PLAYER_TABLES = ['events', 'player_days', 'player_activity', 'funnel_steps', 'funnel_step_hours'] as const;

/** One project's players to erase. */
export type ErasureTarget = { projectId: string; playerIds: readonly string[] };

/**
 * The tag that finds a sweep's mutations in system.mutations: an always-true condition
 * carrying the sweep's tag, which ClickHouse keeps in the mutation's command text.
 */
export function erasureMarker(tag: string): string {
  return `framedeck-erasure:${tag}`;
}

function playersCondition(t: ErasureTarget): SqlFragment {
  return sql`(project_id = toUUID(${t.projectId}) AND player_id IN (${stringList(t.playerIds)}))`;
}

/** The targets of one sweep, one condition per project (jobs of a project merged). */
function sweepCondition(targets: readonly ErasureTarget[]): SqlFragment {
  const byProject = new Map<string, Set<string>>();
  for (const t of targets) {
    const players = byProject.get(t.projectId) ?? new Set<string>();
    for (const id of t.playerIds) players.add(id);
    byProject.set(t.projectId, players);
  }
  const parts = [...byProject].map(([projectId, players]) => playersCondition({ projectId, playerIds: [...players] }));
  return sql`(${join(parts, ' OR ')})`;
}

/**
 * The mutation of one player table for a sweep. On a cluster the names queries use are
 * Distributed tables, which refuse ALTER … DELETE (18.16): the mutation targets the replicated
 * local tables ON CLUSTER, the alter cluster's one replica per shard (replicated to the others
 * through ZooKeeper; cluster-migrations.ts says why not every replica), names qualified since
 * other nodes run it in their default database.
 */
export function erasureStatement(
  table: string,
  targets: readonly ErasureTarget[],
  tag: string,
  cluster: WriterCluster | undefined,
): SqlFragment {
  const where = sql`${sweepCondition(targets)} AND ${erasureMarker(tag)} != ''`;
  if (!cluster) return sql`ALTER TABLE ${identifier(table)} DELETE WHERE ${where}`;
  const local = sql`${identifier(cluster.database)}.${identifier(localTable(table))}`;
  return sql`ALTER TABLE ${local} ON CLUSTER ${identifier(cluster.alterCluster)} DELETE WHERE ${where}`;
}

/**
 * Starts one sweep's deletion: one ClickHouse mutation per player table for all its targets,
 * whatever their number or tenants (a mutation rewrites the parts it touches in the background,
 * so N requests in one sweep cost one rewrite, not N). Returns once the five mutations are
 * recorded, not rewritten (ClickHouseWriter.startMutation). Idempotent: running it twice deletes
 * nothing more.
 */
export async function startErasureSweep(
  writer: ClickHouseWriter,
  targets: readonly ErasureTarget[],
  tag: string,
): Promise<void> {
  if (targets.length === 0) return;
  for (const table of PLAYER_TABLES) {
    await writer.startMutation(erasureStatement(table, targets, tag, writer.cluster));
  }
}

export type SweepMutations =
  /** Not every table's mutation exists (the process stopped between claiming and starting). */
  { state: 'not_started' } | { state: 'running'; partsToDo: number } | { state: 'finished' };

/**
 * Per player table, a sweep's mutations: how many copies exist, how many are not done, and how
 * many copies there must be (`replicas`). One server: system.mutations, one copy per table. A
 * cluster: every replica's system.mutations, through the cluster that lists each node as a shard
 * (skip_unavailable_shards: a replica that is down is missing from the count, so the sweep stays
 * running until it is back and has applied the mutation too).
 */
export function sweepMutationsQuery(tag: string, cluster: WriterCluster | undefined): SqlFragment {
  const marker = erasureMarker(tag);
  if (!cluster) {
    return sql`SELECT table, count() AS mutations, countIf(is_done = 0) AS pending, sum(parts_to_do) AS parts_to_do,
                      1 AS replicas
                 FROM system.mutations
                WHERE database = currentDatabase() AND position(command, ${marker}) > 0
                GROUP BY table`;
  }
  return sql`SELECT table, count() AS mutations, countIf(is_done = 0) AS pending, sum(parts_to_do) AS parts_to_do,
                    (SELECT count() FROM system.clusters WHERE cluster = ${cluster.replicasCluster}) AS replicas
               FROM cluster(${identifier(cluster.replicasCluster)}, system, mutations)
              WHERE database = ${cluster.database} AND position(command, ${marker}) > 0
              GROUP BY table
              SETTINGS skip_unavailable_shards = 1`;
}

/** Where the mutations of one sweep stand (system.mutations.is_done, on every replica of a cluster). */
export async function sweepMutations(clickhouse: ClickHouseWriter, tag: string): Promise<SweepMutations> {
  const tables = await clickhouse.rows<{ mutations: number; pending: number; parts_to_do: number; replicas: number }>(
    sweepMutationsQuery(tag, clickhouse.cluster),
  );
  if (tables.length < PLAYER_TABLES.length) return { state: 'not_started' };
  const unfinished = tables.filter((t) => Number(t.pending) > 0 || Number(t.mutations) < Number(t.replicas));
  if (unfinished.length > 0) {
    return { state: 'running', partsToDo: tables.reduce((sum, t) => sum + Number(t.parts_to_do), 0) };
  }
  return { state: 'finished' };
}

/**
 * Rows of these players left in any player table: the exact "no row remains" check, counted
 * without FINAL, since a row that only a merge would collapse is still a row. On a cluster the
 * tables named here are the Distributed ones: the count covers every shard.
 * NOTE: a mutation only rewrites parts that existed when it was created; events of the same
 * players that were still in Kafka land in new parts, show up here, and the job takes another
 * round, so "done" stays true to its word.
 */
export async function countPlayerRows(clickhouse: ClickHouseReader, t: ErasureTarget): Promise<number> {
  let total = 0;
  for (const table of PLAYER_TABLES) {
    const [row] = await clickhouse.rows<{ n: number }>(
      sql`SELECT count() AS n FROM ${identifier(table)} WHERE ${playersCondition(t)}`,
    );
    total += Number(row?.n ?? 0);
  }
  return total;
}
