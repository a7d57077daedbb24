import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { TelemetryEventInput } from '@framedeck/proto';
import { processEnvironment } from './config.js';
import { splitIntoBodies, type EncodedBody, type SplitOptions } from './batch.splitter.js';
import { applyRunContext, RUN_ENV, runContextFromEnv, type EnvSource, type RunContext } from './run-contract.js';

export type SenderOptions = {
  /** {ingest_url}, e.g. http://127.0.0.1:8081; else FRAMEDECK_INGEST_URL of `env`. */
  ingestUrl?: string;
  /** A key with events:write (a CI key for automated runs); else FRAMEDECK_INGEST_KEY of `env`. */
  apiKey?: string;
  /**
   * Where the run contract and the fallbacks above are read, once, at construction
   * (run-contract.ts); the process environment (config.ts) unless given. Tests and embedders
   * pass their own.
   */
  env?: EnvSource;
  /** The run stamped on every event; read from `env` (FRAMEDECK_BUILD_ID, …) unless given. */
  run?: RunContext;
  sdkVersion?: string;
  /** Tries per body, the first included. */
  maxAttempts?: number;
  /** A Retry-After longer than this is not waited for: the body fails with its status. */
  maxRetryDelayMs?: number;
  /** Bodies in flight at once. */
  concurrency?: number;
  requestTimeoutMs?: number;
  /** Buffered mode (track): flush at this many events or this long after the first one. */
  maxQueuedEvents?: number;
  flushIntervalMs?: number;
  split?: SplitOptions;
  onRetry?: (info: { status: number | string; attempt: number; delayMs: number }) => void;
};

/** What the gateway acknowledged: the batch id (our Idempotency-Key) and its event count. */
export type SentBatch = { batchId: string; events: number; attempts: number };

/** A body the gateway refused for good (4xx other than 429), or that ran out of attempts. */
export class SenderError extends Error {
  constructor(
    message: string,
    readonly status: number | string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'SenderError';
  }
}

export const DEFAULT_SDK_VERSION = 'framedeck-sender-ts/0.1.0';

/**
 * Sends telemetry to POST /v1/events: splits events into gzip bodies under 126,000 bytes,
 * posts them over keep-alive connections, and retries what may succeed later — 429 and 503
 * after the server's Retry-After (bounded by maxRetryDelayMs), network errors and other 5xx
 * with exponential backoff. Every body carries an Idempotency-Key (reused by its retries), so
 * a retry of a body that did land after all is stored once.
 */
export class TelemetrySender {
  private readonly agent: http.Agent;
  private readonly url: URL;
  private readonly apiKey: string;
  /** The automated run this process belongs to (empty outside one). */
  readonly run: RunContext;
  private queue: TelemetryEventInput[] = [];
  private timer: NodeJS.Timeout | undefined;
  private pending = new Set<Promise<unknown>>();
  readonly sent: SentBatch[] = [];

  constructor(private readonly options: SenderOptions) {
    const env = options.env ?? processEnvironment();
    const ingestUrl = options.ingestUrl ?? env[RUN_ENV.ingestUrl];
    const apiKey = options.apiKey ?? env[RUN_ENV.ingestKey]?.trim();
    if (!ingestUrl) throw new TypeError(`the sender needs ingestUrl or ${RUN_ENV.ingestUrl}`);
    if (!apiKey) throw new TypeError(`the sender needs apiKey or ${RUN_ENV.ingestKey}`);
    this.apiKey = apiKey;
    this.run = options.run ?? runContextFromEnv(env);
    this.url = new URL('/v1/events', ingestUrl);
    const Agent = this.url.protocol === 'https:' ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true, maxSockets: options.concurrency ?? 4 });
  }

  /** Sends events now (stamped with the run); resolves with one entry per body once every body was accepted. */
  async send(events: readonly TelemetryEventInput[]): Promise<SentBatch[]> {
    const bodies = splitIntoBodies(applyRunContext(events, this.run), this.options.split);
    const results: SentBatch[] = new Array(bodies.length);
    let next = 0;
    const worker = async () => {
      while (next < bodies.length) {
        const index = next++;
        results[index] = await this.postBody(bodies[index]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency ?? 4, bodies.length) }, worker));
    this.sent.push(...results);
    return results;
  }

  /** Buffered mode: queue one event; sent when the queue is full or the interval elapses. */
  track(event: TelemetryEventInput): void {
    this.queue.push(event);
    if (this.queue.length >= (this.options.maxQueuedEvents ?? 5_000)) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushIntervalMs ?? 1_000);
  }

  /** Sends what is queued and waits for every send in progress. Rejects if any failed. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length > 0) {
      const events = this.queue;
      this.queue = [];
      const sending = this.send(events).finally(() => this.pending.delete(sending));
      this.pending.add(sending);
    }
    const results = await Promise.allSettled([...this.pending]);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.agent.destroy();
    }
  }

  /** Posts one encoded body until it is accepted or fails for good. */
  async postBody(body: EncodedBody, batchId: string = randomUUID()): Promise<SentBatch> {
    const maxAttempts = this.options.maxAttempts ?? 8;
    const maxDelay = this.options.maxRetryDelayMs ?? 30_000;
    for (let attempt = 1; ; attempt++) {
      let status: number | string;
      let retryAfterMs: number | undefined;
      let message: string;
      try {
        const response = await this.post(body.body, batchId);
        if (response.status === 202) return { batchId, events: body.events.length, attempts: attempt };
        status = response.status;
        message = response.error;
        retryAfterMs = parseRetryAfter(response.retryAfter);
        const retryable = status === 429 || status >= 500;
        if (!retryable) throw new SenderError(`ingest refused the batch: ${status} ${message}`, status, false);
      } catch (error) {
        if (error instanceof SenderError) throw error;
        status = (error as NodeJS.ErrnoException).code ?? 'network';
        message = (error as Error).message;
      }
      const backoff = Math.min(maxDelay, 250 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
      const delayMs = retryAfterMs ?? backoff;
      if (attempt >= maxAttempts || delayMs > maxDelay) {
        throw new SenderError(`ingest failed after ${attempt} attempt(s): ${status} ${message}`, status, true);
      }
      this.options.onRetry?.({ status, attempt, delayMs });
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }

  private post(body: Buffer, batchId: string): Promise<{ status: number; error: string; retryAfter?: string }> {
    return new Promise((resolve, reject) => {
      const request = (this.url.protocol === 'https:' ? https : http).request(
        this.url,
        {
          method: 'POST',
          agent: this.agent,
          timeout: this.options.requestTimeoutMs ?? 30_000,
          headers: {
            'content-type': 'application/x-protobuf',
            'content-encoding': 'gzip',
            'content-length': body.length,
            'x-api-key': this.apiKey,
            'x-sdk-version': this.options.sdkVersion ?? DEFAULT_SDK_VERSION,
            'idempotency-key': batchId,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (c: Buffer) => chunks.push(c));
          response.on('error', reject);
          response.on('end', () => {
            let error = '';
            if (response.statusCode !== 202) {
              try {
                error = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: unknown }).error);
              } catch {
                error = Buffer.concat(chunks).toString('utf8').slice(0, 200);
              }
            }
            const retryAfter = response.headers['retry-after'];
            resolve({ status: response.statusCode ?? 0, error, ...(retryAfter ? { retryAfter } : {}) });
          });
        },
      );
      request.on('timeout', () =>
        request.destroy(Object.assign(new Error('request timed out'), { code: 'ETIMEDOUT' })),
      );
      request.on('error', reject);
      request.end(body);
    });
  }
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
