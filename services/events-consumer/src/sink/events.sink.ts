import {
  EventsRowBinaryBlock,
  findRolledUpBatches,
  insertRollupInput,
  rowsToRollUp,
  type BatchSegment,
  insertEventRejections,
  insertEventsBlock,
  retryWrite,
  rollupBatchKey,
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
 * Up to `maxConcurrentInserts` blocks are inserted at once while the next one fills (ClickHouse
 * parses each insert on one thread; two use both cores). Tickets may therefore resolve out of
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
  /**
   * The rollup step in flight for each batch (project/batch key), settled: a block's rollup
   * step waits for the earlier blocks' steps that hold one of its batches (see insert).
   */
  private readonly rollupsByBatch = new Map<string, Promise<void>>();
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
      work = this.acquireSlot()
        .then(() => this.insert(block, segments, rejections))
        .finally(() => {
          this.releaseSlot();
          block.reset();
          this.spareBlocks.push(block);
        });
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
   * after all three. The rollup step looks up which batches are already rolled up and inserts
   * the others (rollups.writer.ts states the guarantee). Two blocks in flight that hold the same
   * batch (a retried or redelivered one) take that step one after the other, so they cannot
   * both find it missing; blocks of different batches take it at once, each insert on its own
   * ClickHouse thread (one rollup insert runs every view on one thread and bounded ingest).
   */
  private async insert(
    block: EventsRowBinaryBlock,
    segments: readonly BatchSegment[],
    rejections: EventRejectionRow[],
  ): Promise<void> {
    const started = Date.now();
    if (block.rows > 0) {
      await this.insertWithRetry('events', block.rows, () => insertEventsBlock(this.clickhouse, block.bytes()));
      await this.inTurnPerBatch(segments, () => this.rollUp(block.bytes(), segments));
    }
    if (rejections.length > 0) {
      await this.insertWithRetry('event_rejections', rejections.length, () =>
        insertEventRejections(this.clickhouse, rejections),
      );
    }
    this.stats.insertedRows += block.rows;
    this.stats.insertedBlocks++;
    this.logger.debug({ rows: block.rows, bytes: block.byteLength, ms: Date.now() - started }, 'block inserted');
  }

  /** Runs `step` once every earlier step registered for one of the segments' batches has settled. */
  private inTurnPerBatch(segments: readonly BatchSegment[], step: () => Promise<void>): Promise<void> {
    const batches = new Set(segments.map((s) => `${s.projectId.toLowerCase()}/${rollupBatchKey(s.batchId)}`));
    const earlier = [...batches].flatMap((batch) => this.rollupsByBatch.get(batch) ?? []);
    const turn = Promise.all(earlier).then(step);
    const settled = turn.catch(() => undefined);
    for (const batch of batches) this.rollupsByBatch.set(batch, settled);
    void settled.then(() => {
      for (const batch of batches) if (this.rollupsByBatch.get(batch) === settled) this.rollupsByBatch.delete(batch);
    });
    return turn;
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
