import { randomUUID } from 'node:crypto';
import type { AlertNotificationPayload } from '@framedeck/alerts';
import type { Logger } from '@framedeck/logging';
import { backoffDelayMs, sendNotification, type RetryPolicy, type TargetPolicy } from '@framedeck/notifications';
import {
  claimDueDeliveries,
  recordDeliveryOutcome,
  type DeliveryOutcome,
  type LeasedDelivery,
  type Pool,
} from '@framedeck/postgres';
import type { Clock } from '../scheduling/clock.js';

export type DelivererOptions = {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  targets: TargetPolicy;
  retry: RetryPolicy;
  timeoutMs: number;
  /** How long a claimed delivery stays ours; longer than timeoutMs (config checks it). */
  leaseMs: number;
  /** Deliveries sent in parallel per run. */
  batchSize: number;
};

export type DeliveryRun = { claimed: number; delivered: number; retrying: number; failed: number };

/**
 * Sends the outbox: claims due deliveries (lease, SKIP LOCKED), sends each once and records the
 * outcome (delivered; pending with the next attempt after backoff + jitter; failed after the
 * last attempt or on an answer retrying cannot fix).
 * NOTE: at-least-once. A crash after the receiver got the request but before the outcome is
 * recorded sends it again once the lease expires, with the same X-FrameDeck-Notification-Id.
 */
export class NotificationDeliverer {
  constructor(private readonly options: DelivererOptions) {}

  async runOnce(): Promise<DeliveryRun> {
    const { pool, clock, batchSize, leaseMs } = this.options;
    const leaseToken = randomUUID();
    const deliveries = await claimDueDeliveries(pool, { now: clock.now(), leaseToken, leaseMs, limit: batchSize });
    const run: DeliveryRun = { claimed: deliveries.length, delivered: 0, retrying: 0, failed: 0 };
    await Promise.all(
      deliveries.map(async (delivery) => {
        const outcome = await this.attempt(delivery);
        run[outcome.status === 'delivered' ? 'delivered' : outcome.status === 'pending' ? 'retrying' : 'failed']++;
        await recordDeliveryOutcome(pool, delivery.id, leaseToken, outcome);
      }),
    );
    return run;
  }

  private async attempt(delivery: LeasedDelivery): Promise<DeliveryOutcome> {
    const { clock, retry, logger } = this.options;
    const result = await sendNotification(delivery.channel, delivery.payload as AlertNotificationPayload, {
      attempt: delivery.attempt,
      now: clock.now(),
      policy: this.options.targets,
      timeoutMs: this.options.timeoutMs,
    });
    const log = { deliveryId: delivery.id, channelId: delivery.channel.id, attempt: delivery.attempt };
    if (result.verdict === 'delivered') {
      return { status: 'delivered', statusCode: result.statusCode, at: clock.now() };
    }
    const error = result.error ?? 'delivery failed';
    if (result.verdict === 'give_up' || delivery.attempt >= retry.maxAttempts) {
      logger.warn({ ...log, error }, 'notification delivery failed for good');
      return { status: 'failed', statusCode: result.statusCode, error };
    }
    const backoff = backoffDelayMs(delivery.attempt, retry);
    const asked = result.retryAfterSeconds !== undefined ? result.retryAfterSeconds * 1000 : 0;
    const delay = Math.min(Math.max(backoff, asked), retry.maxDelayMs);
    logger.info({ ...log, error, retryInMs: delay }, 'notification delivery will be retried');
    return {
      status: 'pending',
      statusCode: result.statusCode,
      error,
      nextAttemptAt: new Date(clock.now().getTime() + delay),
    };
  }
}
