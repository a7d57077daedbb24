import { EVENT_INSERT_COLUMNS } from './events.rowbinary.js';
import type { ClickHouseReader } from './reader.js';
import { join, raw, sql } from './sql.js';
import type { ClickHouseWriter } from './writer.js';

/**
 * Feeding the rollups (clickhouse/007) each batch once.
 *
 * The guarantee: a batch's events are added to the rollups at most once, and — unless the
 * ClickHouse server fails in the middle of one rollup insert — exactly once. The consumer
 * inserts a block into events first (idempotent: FINAL collapses a redelivered batch), then
 * looks the block's batches up in rollup_batches and inserts into rollup_input only the rows
 * of batches not found there and not earlier in the same block. rollup_batches is written by
 * a view of that same rollup_input insert, so "rolled up" and "recorded" happen in one
 * statement: a consumer that dies before or after it redoes or skips the whole batch.
 * The residual case: the server dies between two views of one insert (some rollups got the
 * block, others not); docs/rollups.md says how to rebuild a project's days from the events.
 */

const ROLLUP_INPUT_TABLE = raw('rollup_input');

/**
 * One Kafka message's rows inside a RowBinary block: [start, end) in bytes. A batch too large
 * for one message travels in parts (libs/proto batch-split), each its own segment, told apart
 * by the index of its first event.
 */
export type BatchSegment = { projectId: string; batchId: string; firstEventIndex: number; start: number; end: number };

/**
 * The key rollup_batches records for a batch: its id's text form without the last 8 hex
 * digits, which is what every event id of the batch shares (event-id.ts XORs the event's
 * index into those digits), so the view derives it from any row.
 */
export function rollupBatchKey(batchId: string): string {
  return batchId.toLowerCase().slice(0, 28);
}

const segmentKey = (projectId: string, batchKey: string, firstIndex: number) =>
  `${projectId.toLowerCase()}/${batchKey}/${firstIndex}`;

/** The messages among `segments` whose rows are already in the rollups, as `project/batchKey/firstIndex`. */
export async function findRolledUpBatches(
  reader: ClickHouseReader,
  segments: readonly BatchSegment[],
): Promise<Set<string>> {
  if (segments.length === 0) return new Set();
  const keys = [...new Set(segments.map((s) => rollupBatchKey(s.batchId)))];
  const rows = await reader.rows<{ project_id: string; batch_key: string; first_index: number }>(
    sql`SELECT DISTINCT toString(project_id) AS project_id, batch_key, first_index FROM rollup_batches
         WHERE batch_key IN (${join(keys.map((k) => sql`${k}`))})`,
  );
  return new Set(rows.map((r) => segmentKey(r.project_id, r.batch_key, Number(r.first_index))));
}

/**
 * The rows of `block` still to roll up: segments of batches neither in `rolledUp` nor earlier
 * in the block (a retried batch can arrive twice in one block), concatenated.
 */
export function rowsToRollUp(block: Buffer, segments: readonly BatchSegment[], rolledUp: ReadonlySet<string>): Buffer {
  const seen = new Set(rolledUp);
  const parts: Buffer[] = [];
  for (const s of segments) {
    const key = segmentKey(s.projectId, rollupBatchKey(s.batchId), s.firstEventIndex);
    if (seen.has(key) || s.end === s.start) continue;
    seen.add(key);
    parts.push(block.subarray(s.start, s.end));
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/**
 * Inserts RowBinary rows (the events insert's columns) into rollup_input, whose views aggregate
 * them. With insert deduplication on: on a cluster, a replica drops a rollup block that a replica
 * of its shard already committed, which is what a retry after a failed insert repeats when the
 * ledger's replica had not received the first attempt (clickhouse/015: each rollup row's mark
 * keeps different batches' blocks apart). No table deduplicates on one server. The engine's own
 * insert settings (ServerEngine.rollupInsertSettings) go with it.
 */
export async function insertRollupInput(writer: ClickHouseWriter, rowBinary: Buffer): Promise<void> {
  const engine = await writer.engine();
  await writer.insertRowBinary(ROLLUP_INPUT_TABLE, EVENT_INSERT_COLUMNS, rowBinary, {
    insert_deduplicate: 1,
    ...engine.rollupInsertSettings,
  });
}
