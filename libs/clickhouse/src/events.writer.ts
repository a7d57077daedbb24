import { EVENT_INSERT_COLUMNS } from './events.rowbinary.js';
import { raw } from './sql.js';
import type { ClickHouseWriter } from './writer.js';

/**
 * Typed writes to the events and event_rejections tables. One attempt per call; callers wrap
 * the call in `retryWrite`, because only they know when to give up (the consumer: never while
 * running, since its offsets stay uncommitted until the insert succeeds).
 */

const EVENTS_TABLE = raw('events');

/** Inserts one RowBinary block (see EventsRowBinaryBlock). */
export function insertEventsBlock(writer: ClickHouseWriter, rowBinary: Buffer): Promise<void> {
  return writer.insertRowBinary(EVENTS_TABLE, EVENT_INSERT_COLUMNS, rowBinary);
}

/** Discarded events of one Kafka batch, counted per project, day and reason (clickhouse/002). */
export type EventRejectionRow = {
  projectId: string;
  /** YYYY-MM-DD (the day the batch was received). */
  day: string;
  reason: string;
  batchId: string;
  count: number;
};

export function insertEventRejections(writer: ClickHouseWriter, rows: readonly EventRejectionRow[]): Promise<void> {
  return writer.insertJsonRows(
    'event_rejections',
    rows.map((r) => ({ project_id: r.projectId, day: r.day, reason: r.reason, batch_id: r.batchId, count: r.count })),
  );
}
