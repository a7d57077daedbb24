import { afterAll, beforeAll, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { sql } from '@framedeck/clickhouse';
import { startApi, type TestApi } from '../api/support/api-harness.js';

const ROWS = 500_000;
let api: TestApi;
let tenant: BootstrapResult;

beforeAll(async () => {
  api = await startApi();
  tenant = await bootstrapTenant(api.pool, { plan: 'pro' });
  // ~200 bytes of NDJSON per row: the export is ~100 MB, far more than the memory growth allowed below.
  await api.clickhouse
    .command(sql`INSERT INTO events (project_id, event_id, event_name, timestamp_us, timestamp, session_id, player_id,
                 map_id, fps, frame_time_ms, sdk_version, received_at)
               SELECT toUUID(${tenant.projectId}), generateUUIDv4(), concat('event_', toString(number % 50)),
                      (toUInt64(now()) - number % 86400) * 1000000, toDateTime(toUInt64(now()) - number % 86400),
                      concat('session_', toString(number % 5000)), concat('player_', toString(number % 2000)),
                      'arena', 60, 16.6, 'bench/1', now()
                 FROM numbers(${ROWS})`);
}, 120_000);

afterAll(async () => {
  // Fire and forget: the mutation removes the bulk rows in the background.
  await api.clickhouse.command(sql`ALTER TABLE events DELETE WHERE project_id = toUUID(${tenant.projectId})`);
  await api.close();
});

it('streams a 500k-event export in bounded memory, even through a consumer that stops reading', async () => {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const res = await fetch(`${api.baseUrl}/v1/data/export?include=events`, {
      headers: { 'x-api-key': tenant.keys.full!, 'x-project-id': tenant.projectId },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let bytes = 0;
    let newlines = 0;
    let paused = false;
    let tail = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      for (const byte of value) if (byte === 10) newlines++;
      tail = (tail + Buffer.from(value.subarray(-200)).toString()).slice(-200);
      if (!paused && bytes > 8_000_000) {
        // A slow consumer: if the server ignored backpressure it would buffer the rest now.
        paused = true;
        const before = process.memoryUsage().rss;
        await new Promise((r) => setTimeout(r, 3_000));
        expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1_048_576);
      }
    }
    expect(newlines).toBe(ROWS + 2); // header + events + trailer
    expect(tail).toContain(`{"kind":"end","events":${ROWS}}`);
    expect(bytes).toBeGreaterThan(80 * 1_048_576);
    // The whole export passed through this process (client and server); memory grew by a fraction of it.
    expect(peak - baseline).toBeLessThan(bytes / 3);
    expect(peak - baseline).toBeLessThan(96 * 1_048_576);
  } finally {
    clearInterval(sample);
  }
}, 180_000);
