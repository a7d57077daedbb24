import { isConnectionError, isTransientError } from './errors.js';

/**
 * The one retry policy of FrameDeck's ClickHouse access.
 *  - Reads are repeated once, at once, when the connection broke before an answer: a pooled
 *    keep-alive socket the server had just closed (18.16 closes idle ones after its
 *    keep_alive_timeout) fails the request with ECONNRESET / "socket hang up". A SELECT is
 *    safe to repeat; anything else is the caller's to report.
 *  - Writes are repeated until they succeed or the caller aborts, with exponential backoff and
 *    full jitter (several consumers must not hammer a recovering server in step).
 */
export async function retryRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!isConnectionError(error)) throw error;
    return read();
  }
}

export type RetryOptions = {
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Aborting stops retrying: the pending wait ends and the last error is thrown. */
  signal?: AbortSignal;
  onRetry?: (error: unknown, attempt: number, delayMs: number, transient: boolean) => void;
};

/**
 * Runs `attempt` until it succeeds.
 * NOTE: permanent errors are retried too, at the maximum delay: dropping rows that Kafka still
 * holds would be silent loss, and a stuck consumer shows in lag and logs (onRetry).
 */
export async function retryWrite<T>(attempt: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { initialDelayMs = 100, maxDelayMs = 10_000, signal, onRetry } = options;
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (signal?.aborted) throw error;
      const transient = isTransientError(error);
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
