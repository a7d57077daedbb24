import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { sql } from '@framedeck/clickhouse';
import { startApi, type TestApi } from '../api/support/api-harness.js';
import { dropProjectDatabases } from './sql-fixture.js';

// Raw SQL reads only the project's retained window (issue #15): an event older than the
// project's retention may still be stored (partitions expire a whole week at a time, the TTL
// at merges), but POST /v1/query does not show it; changing the retention rebuilds the view.
// The test environment turns the window off for fixtures dated in the past; this API turns it on.
let api: TestApi;
let t: BootstrapResult;
const DAY = 86_400_000;

const insertAt = (daysAgo: number, eventName: string) => {
  const at = Date.now() - daysAgo * DAY;
  return api.clickhouse.command(
    sql`INSERT INTO events (project_id, event_id, event_name, timestamp_us, timestamp, player_id)
        SELECT toUUID(${t.projectId}), generateUUIDv4(), ${eventName}, ${at * 1000}, toDateTime(${Math.floor(at / 1000)}), 'p1'`,
  );
};
const visibleNames = async () => {
  const res = await api.request('/v1/query', {
    method: 'POST',
    key: t.keys.full!,
    json: { project_id: t.projectId, sql: 'SELECT event_name FROM events ORDER BY event_name' },
  });
  expect(res.status, res.text).toBe(200);
  return (res.body.data.rows as { event_name: string }[]).map((r) => r.event_name);
};
const setRetention = async (rawRetentionDays: number) => {
  const res = await api.request(`/v1/projects/${t.projectId}`, {
    method: 'PATCH',
    key: t.keys.full!,
    json: { rawRetentionDays },
  });
  expect(res.status, res.text).toBe(200);
};

beforeAll(async () => {
  api = await startApi({ env: { FRAMEDECK_API_SQL_RETAINED_WINDOW_ONLY: '1' } });
  t = await bootstrapTenant(api.pool, { plan: 'pro' });
  await insertAt(10, 'ten_days_old');
  await insertAt(1, 'one_day_old');
});
afterAll(async () => {
  await dropProjectDatabases(api.clickhouse, [t.projectId]);
  await api.close();
});

describe('the SQL sandbox view', () => {
  it('shows only the retained window, follows a changed retention, and keeps retention_days out', async () => {
    await setRetention(7);
    expect(await visibleNames()).toEqual(['one_day_old']);
    // Still stored: hidden by the view, not deleted.
    const [stored] = await api.clickhouse.rows<{ n: number }>(
      sql`SELECT count() AS n FROM events WHERE project_id = toUUID(${t.projectId})`,
    );
    expect(Number(stored!.n)).toBe(2);

    await setRetention(14);
    expect(await visibleNames()).toEqual(['one_day_old', 'ten_days_old']);

    const columns = await api.request('/v1/query', {
      method: 'POST',
      key: t.keys.full!,
      json: { project_id: t.projectId, sql: 'SELECT retention_days FROM events' },
    });
    expect(columns.status, columns.text).toBe(400);
  });
});
