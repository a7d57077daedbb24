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

/** A ClickHouse stand-in that records inserts and fails the first `failures` attempts. */
function fakeClickHouse(failures = 0) {
  const inserts: string[] = [];
  let attempts = 0;
  const fail = () => {
    if (attempts++ < failures) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  };
  const client = {
    exec: async () => {
      fail();
      inserts.push('events');
      return { stream: (async function* () {})() };
    },
    insert: async () => {
      inserts.push('rejections');
      return {};
    },
  };
  return { client: new ClickHouseWriter(client as unknown as ClickHouseClient), inserts, attempts: () => attempts };
}

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
    expect(ch.inserts).toEqual(['events']);
    expect(sink.insertedRows).toBe(10);
  });

  it('flushes by time, with rejection counts in the same unit of work', async () => {
    const ch = fakeClickHouse();
    const sink = new EventsSink(ch.client, { flushRows: 1000, flushBytes: 1 << 30, flushIntervalMs: 30 }, logger);
    const started = Date.now();
    await sink.add(batch(3, 2));
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(ch.inserts).toEqual(['events', 'rejections']);
  });

  it('retries a failed insert and keeps the ticket pending until it succeeds', async () => {
    const ch = fakeClickHouse(3);
    const sink = new EventsSink(ch.client, { flushRows: 1, flushBytes: 1 << 30, flushIntervalMs: 10 }, logger);
    await sink.add(batch(1));
    expect(ch.attempts()).toBe(4);
    expect(sink.insertedRows).toBe(1);
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
