import type { ClickHouseWriter } from '@framedeck/clickhouse';
import { PeriodicTask } from '@framedeck/lifecycle';
import type { Logger } from '@framedeck/logging';
import type { Pool } from '@framedeck/postgres';
import { sweepErasureJobs } from './project-data/erasure-jobs.service.js';
import type { ApiConfig } from './config.js';

export type ApiWorkers = {
  /** Stops every worker, waiting for the runs in progress (shutdown never cuts one in half). */
  stop: () => Promise<void>;
};

/**
 * The API process's background work, kept out of the HTTP app (buildApp serves requests only):
 * the erasure sweep, which advances running erasure jobs nobody polls. main.ts starts the
 * workers after the server listens and stops them, awaited, before closing the clients.
 */
export function startApiWorkers(
  deps: { pool: Pool; clickhouseWriter: ClickHouseWriter; logger: Logger },
  config: Pick<ApiConfig, 'api'>,
): ApiWorkers {
  const erasureSweep = new PeriodicTask(
    'erasure sweep',
    () => sweepErasureJobs(deps),
    config.api.erasureSweepMs,
    deps.logger,
  );
  erasureSweep.start();
  return { stop: () => erasureSweep.stop() };
}
