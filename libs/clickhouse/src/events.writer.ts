import { Readable } from 'node:stream';
import type { ClickHouseClient } from '@clickhouse/client';
import { isConnectionError, parseClickHouseError } from './errors.js';
import { EVENT_INSERT_COLUMNS } from './events.rowbinary.js';

/**
 * Writes to the events and event_rejections tables. One attempt per call; callers wrap the
 * call in `retryInsert`, because only they know when to give up (the consumer: never while
 * running, since its offsets stay uncommitted until the insert succeeds).
 */

const INSERT_EVENTS = `INSERT INTO events (${EVENT_INSERT_COLUMNS.join(', ')}) FORMAT RowBinary`;

/** Inserts one RowBinary block (see EventsRowBinaryBlock). */
export async function insertEventsBlock(client: ClickHouseClient, rowBinary: Buffer): Promise<void> {
  const result = await client.exec({ query: INSERT_EVENTS, values: Readable.from([rowBinary]) });
  // The response body of an INSERT is empty, but the socket is only reusable once it is read.
  for await (const _ of result.stream) {
    // drain
  }
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

export async function insertEventRejections(
  client: ClickHouseClient,
  rows: readonly EventRejectionRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await client.insert({
    table: 'event_rejections',
    format: 'JSONEachRow',
    values: rows.map((r) => ({
      project_id: r.projectId,
      day: r.day,
      reason: r.reason,
      batch_id: r.batchId,
      count: r.count,
    })),
  });
}

// ClickHouse error codes that a later attempt can outlive: timeouts, network, memory and
// "too many parts/queries" pressure, a table or replica temporarily read-only.
const TRANSIENT_CODES = new Set([3, 159, 164, 202, 203, 209, 210, 241, 242, 252, 319, 425]);

/**
 * Whether retrying the same insert may succeed. Anything that is not a server error with a
 * code (socket reset, EPIPE from a keep-alive socket the server closed, refused connection
 * while it restarts, HTTP 5xx without a body) counts as transient.
 */
export function isTransientInsertError(error: unknown): boolean {
  if (isConnectionError(error)) return true;
  const parsed = parseClickHouseError(error);
  return parsed === undefined || TRANSIENT_CODES.has(parsed.code);
}

export type RetryOptions = {
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Aborting stops retrying: the pending wait ends and the last error is thrown. */
  signal?: AbortSignal;
  onRetry?: (error: unknown, attempt: number, delayMs: number, transient: boolean) => void;
};

/**
 * Runs `attempt` until it succeeds, waiting between tries with exponential backoff and full
 * jitter (so several consumers do not hammer a recovering server in step).
 * NOTE: permanent errors are retried too, at the maximum delay: dropping rows that Kafka still
 * holds would be silent loss, and a stuck consumer shows in lag and logs (onRetry).
 */
export async function retryInsert<T>(attempt: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { initialDelayMs = 100, maxDelayMs = 10_000, signal, onRetry } = options;
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (signal?.aborted) throw error;
      const transient = isTransientInsertError(error);
      const ceiling = transient ? Math.min(maxDelayMs, initialDelayMs * 2 ** (tries - 1)) : maxDelayMs;
      // An EPIPE/ECONNRESET on a stale keep-alive socket succeeds at once on a fresh one.
      const delay = tries === 1 && isConnectionError(error) ? 0 : Math.round(Math.random() * ceiling);
      onRetry?.(error, tries, delay, transient);
      await sleep(delay, signal);
      if (signal?.aborted) throw error;
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
