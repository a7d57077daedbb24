import {
  DATA_RETENTION,
  dropExpiredPartitions,
  replaceProjectRetention,
  type StoredPartition,
} from '@framedeck/analytics';
import type { ClickHouseWriter } from '@framedeck/clickhouse';
import { listRetentionExceptions, type Pool } from '@framedeck/postgres';

/**
 * One pass of the retention worker (services/api/src/workers.ts runs it periodically):
 *  1. copies the projects' retention settings (Postgres) to ClickHouse's project_retention,
 *     which stamps retention_days on every inserted event, when they changed since this
 *     process last copied them;
 *  2. drops the partitions past their retention (on 18.16 the only enforcement; on modern
 *     servers the TTL does the same and this only gets there first).
 * Every API instance may run it: both steps give the same result run twice or concurrently.
 */
export class DataRetentionWorker {
  private copiedSettings: string | undefined;

  constructor(private readonly deps: { pool: Pool; clickhouseWriter: ClickHouseWriter }) {}

  async run(now = new Date()): Promise<{ dropped: StoredPartition[] }> {
    const exceptions = await listRetentionExceptions(this.deps.pool, DATA_RETENTION.defaultRawDays);
    const settings = JSON.stringify(exceptions);
    if (settings !== this.copiedSettings) {
      await replaceProjectRetention(this.deps.clickhouseWriter, exceptions);
      this.copiedSettings = settings;
    }
    return { dropped: await dropExpiredPartitions(this.deps.clickhouseWriter, now) };
  }
}
