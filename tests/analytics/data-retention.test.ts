import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import type { RAW_EVENT_TABLES } from '@framedeck/analytics';
import { identifier, sql, type ClickHouseWriter } from '@framedeck/clickhouse';
import { setProjectRetentionDays } from '@framedeck/postgres';
import { DataRetentionWorker } from '../../services/api/src/project-data/data-retention.service.js';
import { startApi, type TestApi } from '../api/support/api-harness.js';
import { holdRetentionTtl } from '../support/global-setup.js';
import { ownClickHouseDatabase, type OwnDatabase } from '../support/own-database.js';

// Per-project retention (issue #15): a project kept 7 days and one kept 90 (the default) share
// the events table; expiring the first drops its partitions and leaves the other's parts as
// they were (same names: not rewritten). The worker drops every expired partition of its
// database, so it runs on a database of its own: in the shared one it would drop the other
// tests' fixtures (dated months ago) under them.
let database: OwnDatabase | undefined;
let clickhouse: ClickHouseWriter;
let api: TestApi;
let short: BootstrapResult;
let long: BootstrapResult;
let worker: DataRetentionWorker;
const DAY = 86_400_000;
const now = new Date();
const daysAgo = (d: number) => new Date(now.getTime() - d * DAY);
// Stamped with the project's retention, as the consumer stamps each row from the batch envelope.
const insert = (projectId: string, retentionDays: number, at: Date, n: number) =>
  clickhouse.command(
    sql`INSERT INTO events (project_id, event_id, event_name, timestamp_us, timestamp, player_id, retention_days)
        SELECT toUUID(${projectId}), generateUUIDv4(), 'tick', ${at.getTime() * 1000}, toDateTime(${Math.floor(at.getTime() / 1000)}), concat('p', toString(number)), ${retentionDays}
          FROM system.numbers LIMIT ${n}`,
  );

const countOf = async (projectId: string, table: (typeof RAW_EVENT_TABLES)[number] = 'events') => {
  const [row] = await clickhouse.rows<{ n: number }>(
    sql`SELECT count() AS n FROM ${identifier(table)} WHERE project_id = toUUID(${projectId})`,
  );
  return Number(row!.n);
};
const partsOf = (projectId: string) =>
  clickhouse.rows<{ name: string; retention_days: number }>(
    sql`SELECT DISTINCT _part AS name, retention_days FROM events WHERE project_id = toUUID(${projectId}) ORDER BY name`,
  );

beforeAll(async () => {
  database = await ownClickHouseDatabase('retention');
  clickhouse = database.writer;
  await holdRetentionTtl(database.config); // the worker, not the engine's TTL, is under test
  api = await startApi();
  [short, long] = await Promise.all([
    bootstrapTenant(api.pool, { plan: 'pro' }),
    bootstrapTenant(api.pool, { plan: 'pro' }),
  ]);
  await setProjectRetentionDays(api.pool, short.projectId, 7);
  worker = new DataRetentionWorker({ pool: api.pool, clickhouseWriter: clickhouse });
  await insert(short.projectId, 7, daysAgo(20), 3);
  await insert(short.projectId, 7, daysAgo(1), 2);
  await insert(long.projectId, 90, daysAgo(20), 4);
});
afterAll(async () => {
  await api?.close();
  await database?.drop();
});

describe('data retention', () => {
  it('stamps each row with its project’s retention and drops only the expired project’s partitions', async () => {
    expect((await partsOf(short.projectId)).every((p) => p.retention_days === 7)).toBe(true);
    expect((await partsOf(long.projectId)).every((p) => p.retention_days === 90)).toBe(true);
    expect(await countOf(short.projectId)).toBe(5);
    const longPartsBefore = await partsOf(long.projectId);

    const { dropped } = await worker.run(now);

    expect(dropped.some((p) => p.table === 'events' && p.partitionId.startsWith('7-'))).toBe(true);
    expect(dropped.some((p) => p.table === 'events' && p.partitionId.startsWith('90-'))).toBe(false);
    expect(await countOf(short.projectId)).toBe(2); // the day-old events stay
    expect(await countOf(long.projectId)).toBe(4);
    // The funnels' copy of the events (clickhouse/018) expires with them.
    expect(dropped.some((p) => p.table === 'funnel_steps' && p.partitionId.startsWith('7-'))).toBe(true);
    expect(await countOf(short.projectId, 'funnel_steps')).toBe(2);
    expect(await countOf(long.projectId, 'funnel_steps')).toBe(4);
    expect(await partsOf(long.projectId)).toEqual(longPartsBefore); // not rewritten
  });

  it('the project status shows the data window', async () => {
    const res = await api.request(`/v1/projects/${short.projectId}/status`, { key: short.keys.full! });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.dataWindow).toEqual({
      retentionDays: 7,
      oldestRetainedDay: new Date(Date.now() - 7 * DAY).toISOString().slice(0, 10),
      rollupMonths: 13,
    });
    const other = await api.request(`/v1/projects/${long.projectId}/status`, { key: long.keys.full! });
    expect(other.body.data.dataWindow.retentionDays).toBe(90);
  });
});
