import type { ClickHouseWriter } from '@framedeck/clickhouse';
import { PeriodicTask } from '@framedeck/lifecycle';
import type { Logger } from '@framedeck/logging';
import type { Pool } from '@framedeck/postgres';
import { DataRetentionWorker } from './project-data/data-retention.service.js';
import { sweepErasureJobs } from './project-data/erasure-jobs.service.js';
import type { ApiConfig } from './config.js';

export type ApiWorkers = {
  /** Stops every worker, waiting for the runs in progress (shutdown never cuts one in half). */
  stop: () => Promise<void>;
};

/**
 * The API process's background work, kept out of the HTTP app (buildApp serves requests only):
 * the erasure sweep, which starts and advances erasure jobs, and the retention worker
 * (project-data/data-retention.service.ts). main.ts starts the
 * workers after the server listens and stops them, awaited, before closing the clients.
 */
export function startApiWorkers(
  deps: { pool: Pool; clickhouseWriter: ClickHouseWriter; logger: Logger },
  config: Pick<ApiConfig, 'api' | 'dataLifecycle'>,
  // NOTE: tests whose fixtures are dated in the past (tests/analytics/event-fixtures.ts) turn the
  // retention worker off, or it would drop their events as expired.
  options: { retention: boolean } = { retention: true },
): ApiWorkers {
  const erasureSweep = new PeriodicTask(
    'erasure sweep',
    () => sweepErasureJobs(deps),
    config.api.erasureSweepMs,
    deps.logger,
  );
  const retention = new DataRetentionWorker(deps);
  const retentionTask = new PeriodicTask(
    'data retention',
    () => retention.run(),
    config.dataLifecycle.retentionIntervalMs,
    deps.logger,
  );
  erasureSweep.start();
  if (options.retention && config.dataLifecycle.retentionWorker) retentionTask.start();
  return { stop: async () => void (await Promise.all([erasureSweep.stop(), retentionTask.stop()])) };
}
