import { compressionType, recordBatchBound, recordBytes, type Producer } from '@framedeck/kafka';
import type { Logger } from '@framedeck/logging';
import { batchMessages, type AcceptedBatch, type BatchMessage, type MessageLimits } from './batch-messages.js';

/** Kafka did not acknowledge in time (down, no leader, timed out): the request gets a 503. */
export class PublishUnavailableError extends Error {
  override readonly name = 'PublishUnavailableError';
}

type Pending = { message: BatchMessage; bytes: number; resolve: () => void; reject: (error: Error) => void };

/**
 * Publishes accepted batches to Kafka with acks = all, and resolves each caller's promise only
 * once the broker acknowledged every produce request that carried its records.
 *
 * Requests arriving within `lingerMs` of each other share one produce call (one round trip,
 * one fsync-free append per partition on the broker): at thousands of batches per second,
 * one produce request per HTTP request would make the broker round trip the bottleneck.
 * No produce call carries more than `limits.maxRecordBatchBytes` (bounded as record-batch.ts
 * counts, compression included), so no partition's record batch can exceed the topic's
 * `max.message.bytes`; a batch larger than that travels in parts (batch-messages.ts).
 * Every wait is bounded by `timeoutMs`; a caller that times out gets PublishUnavailableError.
 * NOTE: a produce that times out on our side may still land later; senders that retry with
 * the same Idempotency-Key get the same event ids, so the duplicate collapses in ClickHouse.
 */
export class BatchPublisher {
  private queue: Pending[] = [];
  private queuedBytes = 0;
  private timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private connecting: Promise<void> | undefined;
  private connected = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly producer: Producer,
    private readonly options: {
      topic: string;
      lingerMs: number;
      timeoutMs: number;
      logger: Logger;
      limits: MessageLimits;
    },
  ) {
    producer.on(producer.events.CONNECT, () => (this.connected = true));
    producer.on(producer.events.DISCONNECT, () => (this.connected = false));
  }

  /** Throws OversizedEventError (before anything is sent) when an event cannot fit any record. */
  async publish(batch: AcceptedBatch): Promise<void> {
    const messages = batchMessages(batch, this.options.limits);
    await Promise.all(messages.map((message) => this.enqueue(message)));
  }

  private enqueue(message: BatchMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const { maxRecordBatchBytes, compression } = this.options.limits;
      const bytes = recordBytes(message);
      if (recordBatchBound(this.queuedBytes + bytes, compression) > maxRecordBatchBytes) this.flush();
      this.queue.push({ message, bytes, resolve, reject });
      this.queuedBytes += bytes;
      if (!this.timer) {
        this.timer =
          this.options.lingerMs > 0
            ? setTimeout(() => this.flush(), this.options.lingerMs)
            : setImmediate(() => this.flush());
      }
    });
  }

  /** Sends what is queued and waits for every produce call in flight (shutdown). */
  async drain(): Promise<void> {
    this.flush();
    await Promise.allSettled([...this.inFlight]);
  }

  private flush(): void {
    if (this.timer) {
      clearTimeout(this.timer as NodeJS.Timeout);
      clearImmediate(this.timer as NodeJS.Immediate);
      this.timer = undefined;
    }
    if (this.queue.length === 0) return;
    // enqueue() flushed before the queue could outgrow the cap: this is one produce call's worth.
    const batch = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    const sending = this.send(batch).finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  private async send(batch: Pending[]): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.connect().then(() =>
          this.producer.send({
            topic: this.options.topic,
            acks: -1,
            timeout: this.options.timeoutMs,
            compression: compressionType(this.options.limits.compression),
            messages: batch.map((p) => p.message),
          }),
        ),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('timed out waiting for the Kafka acknowledgement')),
            this.options.timeoutMs,
          );
        }),
      ]);
      for (const pending of batch) pending.resolve();
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message, batches: batch.length }, 'kafka publish failed');
      const failure = new PublishUnavailableError((error as Error).message);
      for (const pending of batch) pending.reject(failure);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Connects on first use and again after the client gave up on a broker. */
  private connect(): Promise<void> {
    if (this.connected) return Promise.resolve();
    this.connecting ??= this.producer.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }
}
