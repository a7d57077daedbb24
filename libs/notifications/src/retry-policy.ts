/**
 * Delivery retries: exponential backoff with "equal jitter" (half the delay fixed, half random)
 * so that many deliveries failing together (a receiver down) do not retry in lock-step.
 */
export type RetryPolicy = { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };

/** Delay before the attempt after `attempt` (1-based) failed. */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export type AttemptVerdict = 'delivered' | 'retry' | 'give_up';

/**
 * 2xx delivered; 408, 425, 429 and 5xx are worth retrying; any other status (a redirect, a
 * 4xx such as 404 or 410) will not change by retrying.
 */
export function verdictForStatus(statusCode: number): AttemptVerdict {
  if (statusCode >= 200 && statusCode < 300) return 'delivered';
  if (statusCode === 408 || statusCode === 425 || statusCode === 429 || statusCode >= 500) return 'retry';
  return 'give_up';
}
