import {
  EventsRowBinaryBlock,
  findRolledUpBatches,
  insertRollupInput,
  rowsToRollUp,
  type BatchSegment,
  insertEventRejections,
  insertEventsBlock,
  retryWrite,
  uuidToRowBinary,
  type ClickHouseWriter,
  type EventRejectionRow,
} from '@framedeck/clickhouse';
import type { Logger } from '@framedeck/logging';
import type { ConsumerMetrics } from '@framedeck/metrics';
import type { ValidatedBatch } from '../pipeline/batch.processor.js';

export type EventsSinkOptions = {
  /** Flush when the block holds this many rows... */
  flushRows: number;
  /** ...or this many bytes... */
  flushBytes: number;
  /** ...or this long after its first row, whichever comes first. */
  flushIntervalMs: number;
  maxConcurrentInserts?: number;
  /** At most this many rows in one rollup_input insert (blocks that waited are rolled up together). */
  maxRollupRows?: number;
};

/** What the sink reports per table: rows written, time to durable (retries included), retries. */
export type InsertMetrics = Pick<ConsumerMetrics, 'insertRows' | 'insertSeconds' | 'insertRetries'>;

/**
 * A validated batch's events as RowBinary rows of `block` (each keeps its index in the batch:
 * its event id); returns where they lie in the block, for the rollups.
 */
export function appendBatchRows(block: EventsRowBinaryBlock, batch: ValidatedBatch): BatchSegment {
  const { envelope } = batch;
  const start = block.byteLength;
  const context = {
    projectId: uuidToRowBinary(envelope.projectId),
    batchId: uuidToRowBinary(envelope.batchId),
    sdkVersion: envelope.sdkVersion,
    receivedAtSeconds: Math.floor(envelope.receivedAtMs / 1000),
    retentionDays: envelope.retentionDays,
    firstEventIndex: envelope.firstEventIndex,
  };
  for (const { index, event } of batch.accepted) block.append(context, event, index);
  return {
    projectId: envelope.projectId,
    batchId: envelope.batchId,
    firstEventIndex: envelope.firstEventIndex,
    start,
    end: block.byteLength,
  };
}

type Deferred = { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void };

/** Blocks' rows waiting for one rollup_input insert: their bytes, where each message lies in them, and when it is done. */
type PendingRollup = { chunks: Buffer[]; segments: BatchSegment[]; bytes: number; rows: number; done: Deferred };

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // a rejection is observed by whoever awaits the ticket
  return { promise, resolve, reject };
}

/**
 * Collects rows of many Kafka messages (from every partition this process consumes) into one
 * RowBinary block and inserts it when it is big enough or old enough. `add` returns a ticket
 * that resolves once the block holding that batch's rows (and its rejection counts) is in
 * ClickHouse; only then may the caller resolve the message's offset.
 *
 * Up to `maxConcurrentInserts` blocks are inserted into events at once while the next one fills
 * (ClickHouse parses each insert on one thread; two use both cores), and the rollups take the
 * blocks that landed, several per insert under load (rollUpInTurn). Tickets may therefore resolve out of
 * order; the consumer awaits them in offset order, so an offset is only resolved when it and
 * every offset before it are durable. A failed insert is retried (backoff + jitter) until it
 * succeeds or the sink is stopped; stopping rejects the pending tickets, so their offsets are
 * never committed and Kafka redelivers them.
 */
export class EventsSink {
  private block: EventsRowBinaryBlock;
  private readonly spareBlocks: EventsRowBinaryBlock[] = [];
  private rejections: EventRejectionRow[] = [];
  private segments: BatchSegment[] = [];
  /** Rows waiting for the rollup step, oldest first (see rollUpInTurn); the last one still fills. */
  private readonly rollupBacklog: PendingRollup[] = [];
  private rollupRunning = false;
  private ticket = deferred();
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly waitingForSlot: (() => void)[] = [];
  private readonly abort = new AbortController();
  private stats = { insertedRows: 0, insertedBlocks: 0 };

  constructor(
    private readonly clickhouse: ClickHouseWriter,
    private readonly options: EventsSinkOptions,
    private readonly logger: Logger,
    private readonly metrics?: InsertMetrics,
  ) {
    this.block = new EventsRowBinaryBlock();
  }

  get insertedRows(): number {
    return this.stats.insertedRows;
  }

  /** Adds a validated batch's rows and rejection counts; the returned promise resolves when they are durable. */
  add(batch: ValidatedBatch): Promise<void> {
    if (this.abort.signal.aborted) return Promise.reject(new Error('events sink is stopped'));
    this.segments.push(appendBatchRows(this.block, batch));
    this.rejections.push(...batch.rejections);
    const ticket = this.ticket.promise;
    if (this.block.rows >= this.options.flushRows || this.block.byteLength >= this.options.flushBytes) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.options.flushIntervalMs);
    return ticket;
  }

  /** Starts inserting what has been added so far; resolves once it and every insert before it are done. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const block = this.block;
    const rejections = this.rejections;
    const segments = this.segments;
    const ticket = this.ticket;
    this.ticket = deferred();
    const earlier = [...this.inFlight];
    let work: Promise<void>;
    if (block.rows === 0 && rejections.length === 0) {
      // Nothing to write, but batches may still wait on this ticket (all their events were
      // invalid or none): they are durable as soon as everything before them is.
      work = Promise.all(earlier).then(() => undefined);
    } else {
      this.block = this.spareBlocks.pop() ?? new EventsRowBinaryBlock();
      this.rejections = [];
      this.segments = [];
      work = this.insert(block, segments, rejections);
    }
    work.then(ticket.resolve, ticket.reject);
    const settled = work.catch(() => undefined);
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
    return Promise.all([...earlier, settled]).then(() => undefined);
  }

  private activeInserts = 0;

  private acquireSlot(): Promise<void> {
    if (this.activeInserts < (this.options.maxConcurrentInserts ?? 2)) {
      this.activeInserts++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waitingForSlot.push(resolve));
  }

  private releaseSlot(): void {
    const next = this.waitingForSlot.shift();
    if (next) next();
    else this.activeInserts--;
  }

  /** Stops retrying: pending and future tickets reject, so nothing more gets committed. */
  stop(): void {
    this.abort.abort();
    clearTimeout(this.timer);
    this.ticket.reject(new Error('events sink stopped'));
  }

  /**
   * Events first, then the rollups, then the rejection counts; the block's offsets commit only
   * after all three. The insert slot covers the events insert only: the block's rows then join
   * the rollup backlog (rollUpInTurn) and the slot goes to the next block; the block itself goes
   * back to the spare blocks once its rows are rolled up (the backlog reads them in place).
   */
  private async insert(
    block: EventsRowBinaryBlock,
    segments: readonly BatchSegment[],
    rejections: EventRejectionRow[],
  ): Promise<void> {
    const started = Date.now();
    const rows = block.rows;
    try {
      await this.acquireSlot();
      let rolledUp = Promise.resolve();
      try {
        if (rows > 0) {
          await this.insertWithRetry('events', rows, () => insertEventsBlock(this.clickhouse, block.bytes()));
          rolledUp = this.rollUpInTurn(block.bytes(), segments, rows);
        }
      } finally {
        this.releaseSlot();
      }
      await rolledUp;
    } finally {
      block.reset();
      this.spareBlocks.push(block);
    }
    if (rejections.length > 0) {
      await this.insertWithRetry('event_rejections', rejections.length, () =>
        insertEventRejections(this.clickhouse, rejections),
      );
    }
    this.stats.insertedRows += rows;
    this.stats.insertedBlocks++;
    this.logger.debug({ rows, ms: Date.now() - started }, 'block inserted');
  }

  /**
   * Adds a block's rows (not copied: the block is reused only after this resolves) to the rollup
   * backlog; resolves once they are rolled up. The rollup step runs one insert at a time, and each insert takes every block
   * that landed in events meanwhile (up to maxRollupRows), so under load one rollup_input insert
   * gathers several blocks. That is what makes it cheaper per event: each insert statement costs
   * ClickHouse a fixed ~0.2–0.3 CPU seconds on these cores (every view writes a part), and a
   * bigger block folds more events into each rollup row (docs/performance.md). One at a time
   * also keeps the ledger exact: two blocks holding the same retried batch either share an
   * insert (rowsToRollUp keeps the first) or the later one asks the ledger once the earlier one
   * is recorded.
   */
  private rollUpInTurn(rows: Buffer, segments: readonly BatchSegment[], rowCount: number): Promise<void> {
    let pending = this.rollupBacklog.at(-1);
    if (pending === undefined || pending.rows >= (this.options.maxRollupRows ?? 1_000_000)) {
      pending = { chunks: [], segments: [], bytes: 0, rows: 0, done: deferred() };
      this.rollupBacklog.push(pending);
    }
    const offset = pending.bytes;
    pending.chunks.push(rows);
    for (const s of segments) pending.segments.push({ ...s, start: s.start + offset, end: s.end + offset });
    pending.bytes += rows.length;
    pending.rows += rowCount;
    void this.runRollups();
    return pending.done.promise;
  }

  /** Rolls the backlog up, oldest first, one insert at a time, until it is empty. */
  private async runRollups(): Promise<void> {
    if (this.rollupRunning) return;
    this.rollupRunning = true;
    try {
      for (let next = this.rollupBacklog.shift(); next !== undefined; next = this.rollupBacklog.shift()) {
        const rows = next.chunks.length === 1 ? next.chunks[0]! : Buffer.concat(next.chunks);
        await this.rollUp(rows, next.segments).then(next.done.resolve, next.done.reject);
      }
    } finally {
      this.rollupRunning = false;
    }
  }

  /**
   * Adds the block's not yet rolled-up batches to the rollups. On one server every attempt asks
   * the ledger again: an attempt whose answer was lost may have rolled the block up (and recorded
   * it). On a cluster a failed attempt is repeated with the same rows: the ledger read may come
   * from a replica that has not fetched the failed attempt's ledger row yet, or has fetched it but
   * not the parts of the views that ran after it; the replicas drop the blocks of the repeat that
   * their shard already committed (insert deduplication, clickhouse/015), and add the others.
   */
  private async rollUp(rows: Buffer, segments: readonly BatchSegment[]): Promise<void> {
    let pending: Buffer | undefined;
    await this.insertWithRetry('rollup_input', 0, async () => {
      if (pending === undefined || !this.clickhouse.cluster) {
        pending = rowsToRollUp(rows, segments, await findRolledUpBatches(this.clickhouse, segments));
      }
      if (pending.length > 0) await insertRollupInput(this.clickhouse, pending);
    });
    this.logger.debug({ bytes: pending?.length ?? 0 }, 'rollups fed');
  }

  /** One table's insert, retried (backoff + jitter) until it succeeds or the sink stops. */
  private async insertWithRetry(table: string, rows: number, write: () => Promise<unknown>): Promise<void> {
    const endTimer = this.metrics?.insertSeconds.startTimer({ table });
    await retryWrite(write, {
      signal: this.abort.signal,
      initialDelayMs: 100,
      maxDelayMs: 5_000,
      onRetry: (error, attempt, delayMs, transient) => {
        this.metrics?.insertRetries.inc({ table });
        this.logger[transient && attempt < 5 ? 'warn' : 'error'](
          { err: (error as Error).message, attempt, delayMs, transient, rows },
          `clickhouse ${table} insert failed; retrying`,
        );
      },
    });
    endTimer?.();
    this.metrics?.insertRows.inc({ table }, rows);
  }
}
