import { identifier, sql, type ClickHouseReader, type ClickHouseWriter, type SqlFragment } from '@framedeck/clickhouse';
import { stringList } from './sql-lists.js';

/**
 * Bounds of one erasure request: the ids travel inside one ALTER statement, which must stay
 * well below ClickHouse's max_query_size (256 KiB): 500 × 256 characters ≈ 130 KB.
 */
export const ERASURE_LIMITS = { maxPlayers: 500, maxPlayerIdLength: 256 } as const;

/** Every table that holds per-player rows: the events and the player_days and player_activity rollups (clickhouse/003, 004). */
export const PLAYER_TABLES = ['events', 'player_days', 'player_activity'] as const;

export type ErasureTarget = { projectId: string; playerIds: readonly string[]; jobId: string };

/**
 * The tag that finds our mutation in system.mutations: a always-true condition carrying the
 * job id and round, which ClickHouse keeps in the mutation's command text.
 */
export function erasureMarker(jobId: string, round: number): string {
  return `framedeck-erasure:${jobId}:${round}`;
}

function playersCondition(t: Pick<ErasureTarget, 'projectId' | 'playerIds'>): SqlFragment {
  return sql`project_id = toUUID(${t.projectId}) AND player_id IN (${stringList(t.playerIds)})`;
}

/**
 * Starts the deletion (a ClickHouse mutation: asynchronous, it rewrites the affected parts in
 * the background). Idempotent: running a round twice deletes nothing more.
 */
export async function startErasure(writer: ClickHouseWriter, t: ErasureTarget, round: number): Promise<void> {
  for (const table of PLAYER_TABLES) {
    await writer.command(
      sql`ALTER TABLE ${identifier(table)} DELETE WHERE ${playersCondition(t)} AND ${erasureMarker(t.jobId, round)} != ''`,
    );
  }
}

export type ErasureProgress =
  /** No mutation of this round exists (the process stopped between recording the job and starting it): start it. */
  | { state: 'not_started'; round: number }
  | { state: 'running'; round: number; partsToDo: number }
  /** The round's mutation finished but rows of the players remain (events that arrived later): start round + 1. */
  | { state: 'needs_round'; round: number; remainingRows: number }
  | { state: 'done'; round: number };

/**
 * Where an erasure stands. Done means: every mutation of this round is finished
 * (system.mutations.is_done) AND no row of those players is left in this project — counted
 * without FINAL, since a row that only a merge would collapse is still a row.
 * NOTE: a mutation only rewrites parts that existed when it was created; events of the same
 * players that were still in Kafka land in new parts. They show up here as remaining rows and
 * the caller starts another round, so "done" stays true to its word.
 */
export async function erasureProgress(
  clickhouse: ClickHouseReader,
  t: ErasureTarget,
  round: number,
): Promise<ErasureProgress> {
  const [mutations] = await clickhouse.rows<{
    mutations: number;
    pending: number;
    parts_to_do: number;
  }>(sql`SELECT count() AS mutations, countIf(is_done = 0) AS pending, sum(parts_to_do) AS parts_to_do
          FROM system.mutations
         WHERE database = currentDatabase() AND position(command, ${erasureMarker(t.jobId, round)}) > 0`);
  if (!mutations || Number(mutations.mutations) < PLAYER_TABLES.length) return { state: 'not_started', round };
  if (Number(mutations.pending) > 0) {
    return { state: 'running', round, partsToDo: Number(mutations?.parts_to_do ?? 0) };
  }
  const remainingRows = await countPlayerRows(clickhouse, t);
  return remainingRows === 0 ? { state: 'done', round } : { state: 'needs_round', round, remainingRows };
}

/** Rows of these players left in any player table. */
export async function countPlayerRows(
  clickhouse: ClickHouseReader,
  t: Pick<ErasureTarget, 'projectId' | 'playerIds'>,
): Promise<number> {
  let total = 0;
  for (const table of PLAYER_TABLES) {
    const [row] = await clickhouse.rows<{ n: number }>(
      sql`SELECT count() AS n FROM ${identifier(table)} WHERE ${playersCondition(t)}`,
    );
    total += Number(row?.n ?? 0);
  }
  return total;
}
