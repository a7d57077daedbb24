import { ClickHouseWriter, type ClickHouseClient } from '@framedeck/clickhouse';
import { createLogger } from '@framedeck/logging';
import { telemetry } from '@framedeck/proto';
import { describe, expect, it } from 'vitest';
import { validateBatch, type ValidatedBatch } from '../pipeline/batch.processor.js';
import { EventsSink } from './events.sink.js';

const now = Date.now();
const batch = (events: number, invalid = 0): ValidatedBatch =>
  validateBatch({
    envelope: {
      batchId: '0b8f4c1e-5a57-4a39-9c1c-1f0c2a5d9e01',
      projectId: '6f1d2b61-0a3b-4e0b-8f3e-2a7c7d1e4f52',
      tenantId: '9c0e8a34-7d0f-4f7e-b1c5-3e6a2d8f1b73',
      receivedAtMs: now,
      sdkVersion: 'test',
      retentionDays: 90,
      eventCount: events + invalid,
      firstEventIndex: 0,
    },
    events: [
      ...Array.from(
        { length: events },
        () => new telemetry.v1.GameTelemetryEvent({ eventName: 'e', sessionId: 's', timestampUs: now * 1000 }),
      ),
      ...Array.from({ length: invalid }, () => new telemetry.v1.GameTelemetryEvent({ eventName: '' })),
    ],
  });

type LedgerRow = { project_id: string; batch_key: string; first_index: number };

/**
 * A ClickHouse stand-in that records inserts (by table, with their RowBinary bytes) and fails
 * the first `failures` attempts of the `failing` table's insert; `ledger` is what rollup_batches
 * holds. A failing rollup insert records its batches in the ledger first, as a server does that
 * dies after the ledger's view ran. `cluster`: the writer is on a cluster. `rollupMs`: each
 * rollup insert takes that long; `steps` lists the ledger reads and rollup inserts in the order
 * they begin and end.
 */
function fakeClickHouse(
  failures = 0,
  ledger: LedgerRow[] = [],
  {
    failing = 'events',
    cluster = false,
    rollupMs = 0,
  }: { failing?: string; cluster?: boolean; rollupMs?: number } = {},
) {
  const inserts: string[] = [];
  const bytes: Record<string, number> = {};
  const rollupAttempts: Buffer[] = [];
  const steps: string[] = [];
  let attempts = 0;
  let ledgerReads = 0;
  const client = {
    exec: async ({ query, values }: { query: string; values: AsyncIterable<Buffer> }) => {
      const table = /^INSERT INTO (\w+)/.exec(query)![1]!;
      const chunks: Buffer[] = [];
      for await (const chunk of values) chunks.push(chunk);
      const body = Buffer.concat(chunks);
      if (table === 'rollup_input') {
        rollupAttempts.push(body);
        steps.push('rollup begins');
        await new Promise((resolve) => setTimeout(resolve, rollupMs));
        steps.push('rollup ends');
      }
      if (table === failing && attempts++ < failures) {
        if (table === 'rollup_input') ledger.push(...ledgerRowsOf(body));
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      }
      inserts.push(table);
      bytes[table] = (bytes[table] ?? 0) + body.length;
      return { stream: (async function* () {})() };
    },
    query: async ({ query }: { query: string }) => {
      if (query.includes('version()')) return { json: async () => [{ version: '18.16.1' }] };
      ledgerReads++;
      steps.push('ledger read');
      return { json: async () => [...ledger] };
    },
    insert: async () => {
      inserts.push('rejections');
      return {};
    },
  };
  return {
    client: new ClickHouseWriter(
      client as unknown as ClickHouseClient,
      cluster ? { cluster: 'c', database: 'd', alterCluster: 'c_alter', replicasCluster: 'c_replicas' } : undefined,
    ),
    inserts,
    bytes,
    rollupAttempts,
    steps,
    attempts: () => attempts,
    ledgerReads: () => ledgerReads,
  };
}

/** The ledger rows of the one test batch, whatever rows were inserted (all tests' batches share it). */
function ledgerRowsOf(rows: Buffer): LedgerRow[] {
  return rows.length === 0
    ? []
    : [{ project_id: one.envelope.projectId, batch_key: one.envelope.batchId.slice(0, 28), first_index: 0 }];
}

const one = batch(4);
/** `one`'s second part: the same batch id, a message of its own (first event index 4). */
const part = (): ValidatedBatch => ({ ...batch(4), envelope: { ...one.envelope, firstEventIndex: 4 } });
const logger = createLogger('test', 'silent');

describe('EventsSink', () => {
  it('flushes by size and resolves a ticket only after its block is inserted', async () => {
    const ch = fakeClickHouse();
    const sink = new EventsSink(ch.client, { flushRows: 10, flushBytes: 1 << 30, flushIntervalMs: 60_000 }, logger);
    let resolved = false;
    const ticket = sink.add(batch(5)).then(() => (resolved = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(resolved).toBe(false);
    expect(ch.inserts).toEqual([]);
    await sink.add(batch(5));
    await ticket;
    expect(ch.inserts).toEqual(['events', 'rollup_input']);
    expect(sink.insertedRows).toBe(10);
  });

  it('flushes by time, with rejection counts in the same unit of work', async () => {
    const ch = fakeClickHouse();
    const sink = new EventsSink(ch.client, { flushRows: 1000, flushBytes: 1 << 30, flushIntervalMs: 30 }, logger);
    const started = Date.now();
    await sink.add(batch(3, 2));
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(ch.inserts).toEqual(['events', 'rollup_input', 'rejections']);
  });

  it('feeds the rollups each Kafka message once: not when the ledger has it, not twice from one block', async () => {
    const other = { ...batch(4), envelope: { ...one.envelope, batchId: '7d3a1c2b-9e8f-4a6b-8c5d-4e3f2a1b0c9d' } };
    const flush = { flushRows: 1000, flushBytes: 1 << 30, flushIntervalMs: 10 };

    // Three messages of which one arrives twice: the rollups get the three, once each.
    const fresh = fakeClickHouse();
    const sink = new EventsSink(fresh.client, flush, logger);
    await Promise.all([sink.add(one), sink.add(other), sink.add(part()), sink.add(one)]);
    expect(fresh.bytes.rollup_input! * 4).toBe(fresh.bytes.events! * 3);

    // The ledger already holds `one` (its first part): only `other` and the second part go in.
    const seen = fakeClickHouse(0, [
      { project_id: one.envelope.projectId, batch_key: one.envelope.batchId.slice(0, 28), first_index: 0 },
    ]);
    const again = new EventsSink(seen.client, flush, logger);
    await Promise.all([again.add(one), again.add(other), again.add(part())]);
    expect(seen.bytes.rollup_input! * 3).toBe(seen.bytes.events! * 2);
  });

  it('rolls up the blocks that landed during a rollup insert in the next one, a batch among them once', async () => {
    const other = { ...batch(4), envelope: { ...one.envelope, batchId: '7d3a1c2b-9e8f-4a6b-8c5d-4e3f2a1b0c9d' } };
    const blockPerBatch = { flushRows: 1, flushBytes: 1 << 30, flushIntervalMs: 10 };

    // The first block rolls up at once; the next three land in events while it runs and go in one
    // insert, which asks the ledger only after the first insert ended. `other` arrives twice
    // there (a redelivery): that insert holds it once.
    const ch = fakeClickHouse(0, [], { rollupMs: 30 });
    const sink = new EventsSink(ch.client, blockPerBatch, logger);
    await Promise.all([sink.add(one), sink.add(other), sink.add(part()), sink.add(other)]);
    expect(ch.steps).toEqual([
      'ledger read',
      'rollup begins',
      'rollup ends',
      'ledger read',
      'rollup begins',
      'rollup ends',
    ]);
    expect(ch.rollupAttempts.map((rows) => rows.length)).toEqual([
      ch.rollupAttempts[0]!.length,
      2 * ch.rollupAttempts[0]!.length,
    ]);
    expect(sink.insertedRows).toBe(16);

    // At most maxRollupRows per insert: the blocks that waited are split.
    const capped = fakeClickHouse(0, [], { rollupMs: 30 });
    const small = new EventsSink(capped.client, { ...blockPerBatch, maxRollupRows: 4 }, logger);
    await Promise.all([small.add(one), small.add(other), small.add(part())]);
    expect(capped.rollupAttempts).toHaveLength(3);
  });

  it('retries a failed insert and keeps the ticket pending until it succeeds', async () => {
    const ch = fakeClickHouse(3);
    const sink = new EventsSink(ch.client, { flushRows: 1, flushBytes: 1 << 30, flushIntervalMs: 10 }, logger);
    await sink.add(batch(1));
    expect(ch.attempts()).toBe(4);
    expect(sink.insertedRows).toBe(1);
  });

  it('asks the ledger again before retrying a failed rollup insert on one server', async () => {
    // The failed attempt recorded the batch (its answer was lost): the retry inserts nothing.
    const ch = fakeClickHouse(1, [], { failing: 'rollup_input' });
    const sink = new EventsSink(ch.client, { flushRows: 1, flushBytes: 1 << 30, flushIntervalMs: 10 }, logger);
    await sink.add(one);
    expect(ch.ledgerReads()).toBe(2);
    expect(ch.rollupAttempts).toHaveLength(1);
    expect(ch.bytes.rollup_input).toBeUndefined();
  });

  it('retries a failed rollup insert with the same rows on a cluster, whatever the ledger read says', async () => {
    // The replicas drop what the failed attempt committed (clickhouse/015); a ledger read may
    // see the failed attempt's batch on a replica that lacks the other views' parts.
    const ch = fakeClickHouse(1, [], { failing: 'rollup_input', cluster: true });
    const sink = new EventsSink(ch.client, { flushRows: 1, flushBytes: 1 << 30, flushIntervalMs: 10 }, logger);
    await sink.add(one);
    expect(ch.ledgerReads()).toBe(1);
    expect(ch.rollupAttempts).toHaveLength(2);
    expect(ch.rollupAttempts[1]!.equals(ch.rollupAttempts[0]!)).toBe(true);
    expect(ch.bytes.rollup_input).toBe(ch.bytes.events);
  });

  it('rejects pending tickets when stopped, so their offsets are never committed', async () => {
    const ch = fakeClickHouse(1_000);
    const sink = new EventsSink(ch.client, { flushRows: 1, flushBytes: 1 << 30, flushIntervalMs: 10 }, logger);
    const ticket = sink.add(batch(1));
    await new Promise((r) => setTimeout(r, 50));
    sink.stop();
    await expect(ticket).rejects.toThrow();
    await expect(sink.add(batch(1))).rejects.toThrow('stopped');
  });
});
