import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { sql } from '@framedeck/clickhouse';
import { kafkaSection } from '@framedeck/config';
import { setProjectRetentionDays } from '@framedeck/postgres';
import { createKafka } from '@framedeck/kafka';
import { createLogger } from '@framedeck/logging';
import { envelopeHeaders } from '@framedeck/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../support/processes.js';
import { connectTestStack } from '../support/stack.js';
import { TEST_ENV } from '../support/config.js';
import { waitFor } from '../support/wait.js';
import {
  batchBody,
  event,
  expectExactlyLedger,
  expectRollupsCountEachEventOnce,
  ledgerIds,
  newTenant,
  postEvents,
  queryRows,
  startConsumer,
  startGateway,
  uniqueProbeName,
  type Tenant,
} from './ingest-harness.js';

// Gateway → Kafka → consumer → ClickHouse with the real processes: what lands, what is
// dropped and counted, what is dead-lettered.
const stack = connectTestStack();
const kafkaConfig = kafkaSection(TEST_ENV);
let gateway: RunningService;
let consumer: RunningService;
let tenant: Tenant;

beforeAll(async () => {
  tenant = await newTenant(stack.pool, 'pro');
  [gateway, consumer] = await Promise.all([startGateway(), startConsumer()]);
});
afterAll(async () => {
  await Promise.all([gateway?.stop(), consumer?.stop()]);
  await stack.close();
});

const countOf = async (name: string) => {
  const [row] = await queryRows<{ n: string; max_ts: string }>(
    stack.clickhouse,
    sql`SELECT count() AS n, max(timestamp_us) AS max_ts FROM events
         WHERE project_id = ${tenant.projectId} AND event_name = ${name}`,
  );
  return { count: Number(row!.n), maxTimestampUs: Number(row!.max_ts) };
};

describe('ingest pipeline', () => {
  it('stores a probe event: its count and max timestamp are visible in ClickHouse (spec end-to-end check)', async () => {
    const name = uniqueProbeName();
    const timestampUs = Date.now() * 1000 + 123;
    const res = await postEvents(batchBody([event({ eventName: name, timestampUs })]), {
      'x-api-key': tenant.keys.ingest!,
    });
    expect(res.status).toBe(202);
    const started = Date.now();
    const stored = await waitFor(async () => {
      const c = await countOf(name);
      return c.count > 0 && c;
    });
    expect(stored).toEqual({ count: 1, maxTimestampUs: timestampUs });
    // Design target: visible well within the spec's 20-30 s; our flush interval is 500 ms.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('drops invalid events, counts them per project, day and reason, and stores the valid rest', async () => {
    const name = uniqueProbeName();
    const now = Date.now() * 1000;
    const day = new Date().toISOString().slice(0, 10);
    const events = [
      event({ eventName: name, timestampUs: now }),
      event({ eventName: '', timestampUs: now }),
      event({ eventName: name, sessionId: '', timestampUs: now }),
      event({ eventName: name, timestampUs: now - 31 * 86_400_000_000 }),
      event({ eventName: name, timestampUs: now + 49 * 3_600_000_000 }),
      event({ eventName: name, timestampUs: now, fps: Number.NaN }),
      event({ eventName: name, timestampUs: now, metrics: { dps: Number.POSITIVE_INFINITY } }),
      event({ eventName: name, timestampUs: now, mapId: 'm'.repeat(300) }),
      event({ eventName: name, timestampUs: now + 1 }),
    ];
    expect((await postEvents(batchBody(events), { 'x-api-key': tenant.keys.ingest! })).status).toBe(202);
    const expected = {
      missing_event_name: 1,
      missing_session_id: 1,
      timestamp_too_old: 1,
      timestamp_in_future: 1,
      non_finite_number: 1,
      non_finite_metric: 1,
      map_id_too_long: 1,
    };
    const counted = await waitFor(async () => {
      const rows = await queryRows<{ reason: string; n: string }>(
        stack.clickhouse,
        sql`SELECT reason, sum(count) AS n FROM event_rejections FINAL
             WHERE project_id = ${tenant.projectId} AND day = toDate(${day}) GROUP BY reason`,
      );
      const byReason = Object.fromEntries(rows.map((r) => [r.reason, Number(r.n)]));
      return Object.keys(byReason).length >= Object.keys(expected).length && byReason;
    });
    expect(counted).toEqual(expected);
    expect((await countOf(name)).count).toBe(2);
    const [invalidStored] = await queryRows<{ n: string }>(
      stack.clickhouse,
      sql`SELECT count() AS n FROM events WHERE project_id = ${tenant.projectId}
           AND (event_name = '' OR session_id = '' OR isNaN(fps) OR length(map_id) > 255)`,
    );
    expect(Number(invalidStored!.n)).toBe(0);
  });

  it('keeps camera presence: absent is NULL, 0 is 0 (facing North)', async () => {
    const name = uniqueProbeName();
    const events = [
      event({ eventName: name, sessionId: 'absent' }),
      event({ eventName: name, sessionId: 'zero', cameraYaw: 0, cameraPitch: 0 }),
      event({ eventName: name, sessionId: 'set', cameraYaw: 271.5, cameraPitch: -45 }),
    ];
    expect((await postEvents(batchBody(events), { 'x-api-key': tenant.keys.ingest! })).status).toBe(202);
    await waitFor(async () => (await countOf(name)).count === 3);
    const rows = await queryRows<{ session_id: string; camera_yaw: number | null; camera_pitch: number | null }>(
      stack.clickhouse,
      sql`SELECT session_id, camera_yaw, camera_pitch FROM events
           WHERE project_id = ${tenant.projectId} AND event_name = ${name} ORDER BY session_id`,
    );
    expect(rows).toEqual([
      { session_id: 'absent', camera_yaw: null, camera_pitch: null },
      { session_id: 'set', camera_yaw: 271.5, camera_pitch: -45 },
      { session_id: 'zero', camera_yaw: 0, camera_pitch: 0 },
    ]);
  });

  it('stores the source, the SDK version and the key’s project with every row', async () => {
    const name = uniqueProbeName();
    const res = await postEvents(batchBody([event({ eventName: name, source: 2 })]), {
      'x-api-key': tenant.keys.ingest!,
      'x-sdk-version': 'unreal/5.4-fd1.2',
    });
    expect(res.status).toBe(202);
    await waitFor(async () => (await countOf(name)).count === 1);
    const [row] = await queryRows<{ source: string; sdk_version: string; event_id: string }>(
      stack.clickhouse,
      sql`SELECT source, sdk_version, toString(event_id) AS event_id FROM events
           WHERE project_id = ${tenant.projectId} AND event_name = ${name}`,
    );
    expect(row).toMatchObject({ source: 'automated', sdk_version: 'unreal/5.4-fd1.2' });
    expect(row!.event_id).toBe(res.headers.get('x-batch-id')); // event 0 of the batch
  });

  it('stores a batch retried with the same Idempotency-Key once', async () => {
    const name = uniqueProbeName();
    const body = batchBody(Array.from({ length: 5 }, (_, i) => event({ eventName: name, sessionId: `s${i}` })));
    const idempotencyKey = randomUUID();
    for (let i = 0; i < 3; i++) {
      expect(
        (await postEvents(body, { 'x-api-key': tenant.keys.ingest!, 'idempotency-key': idempotencyKey })).status,
      ).toBe(202);
    }
    await waitFor(async () => (await countOf(name)).count >= 5);
    const [row] = await queryRows<{ n: string }>(
      stack.clickhouse,
      sql`SELECT count() AS n FROM events FINAL WHERE project_id = ${tenant.projectId} AND event_name = ${name}`,
    );
    expect(Number(row!.n)).toBe(5);
    await expectRollupsCountEachEventOnce(stack.clickhouse, tenant.projectId);
  });

  it('stores a batch retried without Idempotency-Key once: the SDKs retry timeouts, 429 and 5xx with the same bytes', async () => {
    const retrying = await newTenant(stack.pool, 'pro');
    const name = uniqueProbeName();
    const body = batchBody(Array.from({ length: 5 }, (_, i) => event({ eventName: name, sessionId: `s${i}` })));
    const answers = [];
    for (const gzip of [false, true, false]) {
      const headers = { 'x-api-key': retrying.keys.ingest!, ...(gzip ? { 'content-encoding': 'gzip' } : {}) };
      answers.push(await postEvents(gzip ? gzipSync(body) : body, headers));
    }
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    const batchId = answers[0]!.headers.get('x-batch-id')!;
    expect(answers.map((a) => a.headers.get('x-batch-id'))).toEqual([batchId, batchId, batchId]);
    // Every copy inserted (or merged away) before counting, so the count cannot be early.
    const rawCount = async () =>
      Number(
        (
          await queryRows<{ n: string }>(
            stack.clickhouse,
            sql`SELECT count() AS n FROM events WHERE project_id = ${retrying.projectId}`,
          )
        )[0]!.n,
      );
    await waitFor(async () => (await rawCount()) >= 15, { timeoutMs: 8_000, what: 'three copies' }).catch(() => {});
    await expectExactlyLedger(stack.clickhouse, retrying.projectId, ledgerIds([{ batchId, events: 5, attempts: 3 }]));
  });

  it('a batch too large for one Kafka message lands whole in events and rollups, stamped with the project’s retention', async () => {
    const kept30Days = await newTenant(stack.pool, 'pro');
    await setProjectRetentionDays(stack.pool, kept30Days.projectId, 30);
    // 40 events × 60 attributes of 1,000 characters ≈ 2.4 MB inflated: the gateway splits it
    // into parts under the 1 MB record-batch cap, each a message of its own with the same batch id.
    const attributes = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, 'x'.repeat(1000)]));
    const events = Array.from({ length: 40 }, (_, i) =>
      event({ eventName: 'big', sessionId: `s${i}`, mapId: 'arena', position: { x: i, y: i, z: 0 }, attributes }),
    );
    const res = await postEvents(gzipSync(batchBody(events)), {
      'x-api-key': kept30Days.keys.ingest!,
      'content-encoding': 'gzip',
    });
    expect(res.status).toBe(202);
    const batchId = res.headers.get('x-batch-id')!;
    // Every part is rolled up (the ledger keys parts by their first event), none twice.
    await expectExactlyLedger(
      stack.clickhouse,
      kept30Days.projectId,
      ledgerIds([{ batchId, events: 40, attempts: 1 }]),
    );
    const rows = await queryRows<{ retention_days: number; parts: string }>(
      stack.clickhouse,
      sql`SELECT retention_days, toString(uniqExact(batch_first_index)) AS parts FROM events
           WHERE project_id = ${kept30Days.projectId} GROUP BY retention_days`,
    );
    expect(rows.map((r) => Number(r.retention_days))).toEqual([30]);
    expect(Number(rows[0]!.parts)).toBeGreaterThan(1);
  });

  it('dead-letters a message that does not decode, with the reason in its headers, and moves on', async () => {
    const kafka = createKafka(kafkaConfig, createLogger('test', 'silent'));
    const producer = kafka.producer();
    const admin = kafka.admin();
    const reader = kafka.consumer({ groupId: `dlq-test-${randomUUID()}` });
    const marker = randomUUID();
    try {
      await Promise.all([producer.connect(), admin.connect(), reader.connect()]);
      const headers = envelopeHeaders({
        batchId: marker,
        projectId: tenant.projectId,
        tenantId: tenant.tenantId,
        receivedAtMs: Date.now(),
        sdkVersion: 'tests',
        eventCount: 1,
        firstEventIndex: 0,
        retentionDays: 90,
      });
      await producer.send({
        topic: kafkaConfig.eventsTopic,
        acks: -1,
        messages: [{ value: Buffer.from([0x0a, 0xff, 0x01]), headers }],
      });
      await reader.subscribe({ topics: [kafkaConfig.deadLetterTopic], fromBeginning: true });
      const found = new Promise<Record<string, string>>((resolve) => {
        void reader.run({
          eachMessage: async ({ message }) => {
            const h = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]));
            if (h['fd-batch-id'] === marker) resolve(h);
          },
        });
      });
      const parked = await Promise.race([
        found,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no dead letter within 30 s')), 30_000)),
      ]);
      expect(parked['fd-dead-letter-reason']).toMatch(/undecodable/);
      expect(parked['fd-dead-letter-source-topic']).toBe(kafkaConfig.eventsTopic);
      // The consumer went on: a valid batch sent afterwards still lands.
      const name = uniqueProbeName();
      expect(
        (await postEvents(batchBody([event({ eventName: name })]), { 'x-api-key': tenant.keys.ingest! })).status,
      ).toBe(202);
      await waitFor(async () => (await countOf(name)).count === 1);
    } finally {
      await Promise.allSettled([reader.disconnect(), producer.disconnect(), admin.disconnect()]);
    }
  });
});
