import { randomUUID } from 'node:crypto';
import type { TelemetryEventInput } from '@framedeck/proto';
import {
  simulateTelemetry,
  splitIntoBodies,
  TelemetrySender,
  type EncodedBody,
  type SentBatch,
} from '@framedeck/sender';

export type SteadyLoadOptions = {
  ingestUrl: string;
  apiKey: string;
  /** Independent senders (own keep-alive connections), each posting one body per tick. */
  senders: number;
  intervalMs: number;
  eventsPerBody: number;
  /** Hard caps: the load stops by itself at whichever comes first. */
  maxBodies: number;
  maxDurationMs: number;
  /** Bodies still retrying at once; a tick that would exceed it is skipped (an SDK buffers). */
  maxInFlight?: number;
  seed?: number;
};

export type AckedBatch = SentBatch & { ackedAt: number };

export type LoadResult = {
  /** events of every body posted at least once */
  sentEvents: number;
  acked: AckedBatch[];
  ackedEvents: number;
  /** bodies that ran out of attempts: their fate is unknown to the sender */
  gaveUp: { batchId: string; events: number; error: string }[];
  /** failed attempts (later retried) by status or network error code */
  retriesByStatus: Record<string, number>;
  skippedTicks: number;
};

/**
 * Simulated senders at a steady rate, the way SDKs behave: each tick posts one gzip body
 * with TelemetrySender (its Idempotency-Key reused by every retry of that body), without
 * waiting for earlier bodies, which keep retrying 503s, 429s and network errors on their own.
 * What the gateway acknowledged (202) is the ledger the stored events are checked against.
 */
export class SteadyLoad {
  private readonly senders: TelemetrySender[];
  private readonly events: Iterator<TelemetryEventInput>;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly result: LoadResult = {
    sentEvents: 0,
    acked: [],
    ackedEvents: 0,
    gaveUp: [],
    retriesByStatus: {},
    skippedTicks: 0,
  };
  private timers: NodeJS.Timeout[] = [];
  private bodies = 0;
  private readonly startedAt = Date.now();

  constructor(private readonly options: SteadyLoadOptions) {
    this.senders = Array.from(
      { length: options.senders },
      () =>
        new TelemetrySender({
          ingestUrl: options.ingestUrl,
          apiKey: options.apiKey,
          sdkVersion: 'reliability-load/1.0',
          // Bounded by the load's own deadline (stop), not by a count: a body retries through
          // an outage the way an SDK keeps its buffer.
          maxAttempts: 1_000,
          maxRetryDelayMs: 10_000,
          requestTimeoutMs: 10_000,
          concurrency: 16,
          onRetry: ({ status }) => {
            this.result.retriesByStatus[status] = (this.result.retriesByStatus[status] ?? 0) + 1;
          },
        }),
    );
    // Two simulated hours of 25 players: far more than any run posts, generated lazily.
    this.events = simulateTelemetry({ seed: options.seed ?? 7, players: 25, minutes: 120 })[Symbol.iterator]();
  }

  start(): this {
    this.senders.forEach((sender, i) => {
      // Senders are spread over the interval so the gateway sees an even rate.
      const first = setTimeout(
        () => {
          this.tick(sender);
          this.timers.push(setInterval(() => this.tick(sender), this.options.intervalMs));
        },
        (i * this.options.intervalMs) / this.senders.length,
      );
      this.timers.push(first);
    });
    return this;
  }

  get snapshot(): Readonly<LoadResult> {
    return this.result;
  }

  /** Posts one extra body now (e.g. a probe) through the first sender; resolves when acknowledged. */
  async post(events: TelemetryEventInput[]): Promise<AckedBatch> {
    return this.track(this.senders[0]!, encode(events));
  }

  /**
   * Stops posting new bodies and waits (at most `timeoutMs`) for those still retrying.
   * Rejects if some body is still unresolved then: the ledger would be incomplete.
   */
  async stop(timeoutMs = 90_000): Promise<LoadResult> {
    this.timers.forEach((t) => clearTimeout(t));
    this.timers = [];
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const outcome = await Promise.race([Promise.allSettled([...this.inFlight]), deadline]);
    clearTimeout(timer);
    await Promise.allSettled(this.senders.map((s) => s.close()));
    if (outcome === 'timeout') {
      throw new Error(`${this.inFlight.size} bodies were still retrying ${timeoutMs} ms after the load stopped`);
    }
    return this.result;
  }

  private tick(sender: TelemetrySender): void {
    const { maxBodies, maxDurationMs, eventsPerBody, maxInFlight = 64 } = this.options;
    if (this.bodies >= maxBodies || Date.now() - this.startedAt > maxDurationMs) {
      this.timers.forEach((t) => clearTimeout(t));
      return;
    }
    if (this.inFlight.size >= maxInFlight) {
      this.result.skippedTicks++;
      return;
    }
    const events: TelemetryEventInput[] = [];
    for (let i = 0; i < eventsPerBody; i++) {
      const next = this.events.next();
      if (next.done) break;
      events.push(next.value);
    }
    if (events.length === 0) return;
    this.bodies++;
    void this.track(sender, encode(events)).catch(() => undefined);
  }

  private track(sender: TelemetrySender, body: EncodedBody): Promise<AckedBatch> {
    const batchId = randomUUID();
    const events = body.events.length;
    this.result.sentEvents += events;
    const posting = sender.postBody(body, batchId).then(
      (sent) => {
        const acked = { ...sent, ackedAt: Date.now() };
        this.result.acked.push(acked);
        this.result.ackedEvents += sent.events;
        return acked;
      },
      (error: Error) => {
        this.result.gaveUp.push({ batchId, events, error: error.message });
        throw error;
      },
    );
    const settled = posting.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(settled);
    void settled.finally(() => this.inFlight.delete(settled));
    return posting;
  }
}

/** One gzip body for all of `events` (callers keep bodies far below the size limit). */
function encode(events: TelemetryEventInput[]): EncodedBody {
  const bodies = splitIntoBodies(events, { maxEventsPerBody: events.length });
  if (bodies.length !== 1) throw new Error(`${events.length} events did not fit one body`);
  return bodies[0]!;
}
