import { dropExpiredPartitions, type StoredPartition } from '@framedeck/analytics';
import type { ClickHouseWriter } from '@framedeck/clickhouse';
import type { Pool } from '@framedeck/postgres';

/**
 * One pass of the retention worker (services/api/src/workers.ts runs it periodically): drops
 * the partitions past their retention (on 18.16 the only enforcement; on modern servers the
 * TTL does the same and this only gets there first). Each event row carries its project's
 * retention, stamped by the consumer from the batch envelope (the gateway reads the setting),
 * and leads the partition key, so no project lookup is needed here.
 * Every API instance may run it: the result is the same run twice or concurrently.
 */
export class DataRetentionWorker {
  constructor(private readonly deps: { pool: Pool; clickhouseWriter: ClickHouseWriter }) {}

  async run(now = new Date()): Promise<{ dropped: StoredPartition[] }> {
    return { dropped: await dropExpiredPartitions(this.deps.clickhouseWriter, now) };
  }
}
