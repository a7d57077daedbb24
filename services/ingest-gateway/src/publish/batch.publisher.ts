import type { Producer } from '@framedeck/kafka';
import type { Logger } from '@framedeck/logging';

export type BatchMessage = { value: Buffer; headers: Record<string, string> };

/** Kafka did not acknowledge in time (down, no leader, timed out): the request gets a 503. */
export class PublishUnavailableError extends Error {
  override readonly name = 'PublishUnavailableError';
}

type Pending = { message: BatchMessage; resolve: () => void; reject: (error: Error) => void };

/**
 * Publishes accepted batches to Kafka with acks = all, and resolves each caller's promise only
 * once the broker acknowledged the produce request that carried its message.
 *
 * Requests arriving within `lingerMs` of each other share one produce call (one round trip,
 * one fsync-free append per partition on the broker): at thousands of batches per second,
 * one produce request per HTTP request would make the broker round trip the bottleneck.
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
      maxBatchBytes?: number;
    },
  ) {
    producer.on(producer.events.CONNECT, () => (this.connected = true));
    producer.on(producer.events.DISCONNECT, () => (this.connected = false));
  }

  publish(message: BatchMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ message, resolve, reject });
      this.queuedBytes += message.value.length;
      if (this.queuedBytes >= (this.options.maxBatchBytes ?? 4 << 20)) this.flush();
      else if (!this.timer) {
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
