import type { ClickHouseReader } from '@framedeck/clickhouse';
import type { Logger } from '@framedeck/logging';
import type { AlertMetrics } from '@framedeck/metrics';
import type { Pool } from '@framedeck/postgres';
import type { EvaluatorConfig } from './config.js';
import { NotificationDeliverer } from './delivery/notification.deliverer.js';
import { heatmapCellSource, type CellSource } from './evaluation/heatmap-cells.source.js';
import { RuleEvaluator } from './evaluation/rule.evaluator.js';
import { systemClock, type Clock } from './scheduling/clock.js';
import { PeriodicTask } from '@framedeck/lifecycle';

export type AlertEvaluatorDeps = {
  config: Pick<EvaluatorConfig, 'alerts' | 'notifications' | 'addresses'>;
  pool: Pool;
  clickhouse: ClickHouseReader;
  logger: Logger;
  clock?: Clock;
  cells?: CellSource;
  metrics?: AlertMetrics;
};

/**
 * The evaluator process's work: one loop evaluating due rules, one delivering the outbox
 * (poked right after an evaluation queued notifications). Built from clients; main.ts
 * builds the clients, tests build this with their own clock.
 */
export function buildAlertEvaluator(deps: AlertEvaluatorDeps) {
  const { config, pool, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const evaluator = new RuleEvaluator({
    pool,
    clock,
    logger,
    cells: deps.cells ?? heatmapCellSource(deps.clickhouse),
    appOrigin: config.addresses.appOrigin,
    evaluationIntervalMs: config.alerts.evaluationIntervalMs,
    leaseMs: config.alerts.leaseMs,
    batchSize: config.alerts.batchSize,
    metrics: deps.metrics,
  });
  const deliverer = new NotificationDeliverer({
    pool,
    clock,
    logger,
    targets: config.notifications,
    retry: config.alerts.delivery.retry,
    timeoutMs: config.alerts.delivery.timeoutMs,
    leaseMs: config.alerts.leaseMs,
    batchSize: config.alerts.batchSize,
  });
  const delivering = new PeriodicTask(
    'deliver notifications',
    () => drain(deliverer),
    config.alerts.pollIntervalMs,
    logger,
  );
  const evaluating = new PeriodicTask(
    'evaluate alert rules',
    async () => {
      const run = await drain(evaluator);
      if (run.notifications > 0) delivering.trigger();
    },
    config.alerts.pollIntervalMs,
    logger,
  );
  return {
    evaluator,
    deliverer,
    start: () => {
      evaluating.start();
      delivering.start();
    },
    /** Waits for the runs in progress; safe to call twice. */
    stop: () => Promise.all([evaluating.stop(), delivering.stop()]).then(() => undefined),
  };
}

/** Runs batches until one comes back short, so a backlog is worked off without waiting a tick. */
async function drain<R extends { claimed: number; notifications?: number }>(worker: {
  runOnce: () => Promise<R>;
}): Promise<{ notifications: number }> {
  let notifications = 0;
  for (let batches = 0; batches < 50; batches++) {
    const run = await worker.runOnce();
    notifications += run.notifications ?? 0;
    if (run.claimed === 0) break;
  }
  return { notifications };
}
