import type { Logger } from '@framedeck/logging';
import {
  FailOpenSlidingWindow,
  MemorySlidingWindow,
  RedisSlidingWindow,
  type Clock,
  type SlidingWindowCounter,
} from '@framedeck/rate-limit';
import type { Redis } from '@framedeck/redis';

/**
 * DECISION: Redis down → fail open to a per-instance in-memory window with the same limits
 * (logged at most every 30 s). The API stays up; each instance still stops a runaway client.
 * Used by the plan quota and by the sign-in and OAuth registration limits.
 */
export function failOpenCounter(options: {
  redis: Redis;
  logger: Logger;
  windowMs: number;
  /** Names the limit in the warning. */
  what: string;
  now?: Clock;
  keyPrefix?: string;
}): SlidingWindowCounter {
  const { windowMs, now } = options;
  let lastWarning = 0;
  return new FailOpenSlidingWindow(
    new RedisSlidingWindow(options.redis, { windowMs, now, keyPrefix: options.keyPrefix ?? 'rl:' }),
    new MemorySlidingWindow({ windowMs, now }),
    (error) => {
      if (Date.now() - lastWarning < 30_000) return;
      lastWarning = Date.now();
      options.logger.warn({ err: error }, `${options.what}: Redis unavailable, counting in this process only`);
    },
  );
}
