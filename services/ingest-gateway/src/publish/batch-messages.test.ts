import { randomUUID } from 'node:crypto';
import { Partitioners } from 'kafkajs';
import { recordBatchBound, recordBytes } from '@framedeck/kafka';
import {
  decodeTelemetryBatch,
  encodeTelemetryBatch,
  OversizedEventError,
  parseEnvelopeHeaders,
} from '@framedeck/proto';
import { describe, expect, it } from 'vitest';
import { batchMessages } from './batch-messages.js';

const envelope = {
  batchId: '0b8f4c1e-5a57-4a39-9c1c-1f0c2a5d9e01',
  projectId: '6f1d2b61-0a3b-4e0b-8f3e-2a7c7d1e4f52',
  tenantId: '9c0e8a34-7d0f-4f7e-b1c5-3e6a2d8f1b73',
  receivedAtMs: 1_767_225_600_000,
  sdkVersion: 'unity/2.1.0',
  retentionDays: 90,
};
const events = Array.from({ length: 3000 }, (_, i) => ({ eventName: `e${i}`, sessionId: 'x'.repeat(300) }));
const value = Buffer.from(encodeTelemetryBatch(events));

describe('batchMessages', () => {
  it('sends a batch that fits as one record keyed by its batch id', () => {
    const [only, ...rest] = batchMessages({ value, envelope }, { maxRecordBatchBytes: 1_000_000, compression: 'gzip' });
    expect(rest).toEqual([]);
    expect(only!.key).toBe(envelope.batchId);
    expect(only!.value.equals(value)).toBe(true);
    expect(parseEnvelopeHeaders(only!.headers)).toMatchObject({ eventCount: 3000, firstEventIndex: 0 });
  });

  it.each(['gzip', 'none'] as const)(
    'splits a larger batch into records whose record batch stays within the cap (%s), every event once',
    (compression) => {
      const limit = 100_000;
      const messages = batchMessages({ value, envelope }, { maxRecordBatchBytes: limit, compression });
      expect(messages.length).toBeGreaterThan(9);
      let next = 0;
      for (const message of messages) {
        expect(recordBatchBound(recordBytes(message), compression)).toBeLessThanOrEqual(limit);
        const parsed = parseEnvelopeHeaders(message.headers);
        expect(parsed).toMatchObject({ batchId: envelope.batchId, firstEventIndex: next });
        const decoded = decodeTelemetryBatch(message.value);
        expect(decoded[0]!.eventName).toBe(`e${next}`);
        next += decoded.length;
        expect(message.key).toBe(envelope.batchId);
      }
      expect(next).toBe(3000);
    },
  );

  it('marks every part of a CI key’s split batch as synthetic', () => {
    const messages = batchMessages(
      { value, envelope: { ...envelope, synthetic: true } },
      { maxRecordBatchBytes: 100_000, compression: 'none' },
    );
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) expect(parseEnvelopeHeaders(message.headers)).toMatchObject({ synthetic: true });
  });

  it('refuses a batch holding one event too large for any record', () => {
    const huge = Buffer.from(encodeTelemetryBatch([{ eventName: 'big', sessionId: 'x'.repeat(20_000) }]));
    expect(() =>
      batchMessages({ value: huge, envelope }, { maxRecordBatchBytes: 10_000, compression: 'none' }),
    ).toThrow(OversizedEventError);
  });

  it("spreads one project's batches over every partition, as the producer places their keys", () => {
    const partitionOf = Partitioners.DefaultPartitioner();
    const partitionMetadata = Array.from({ length: 12 }, (_, i) => ({
      partitionId: i,
      leader: 1,
      partitionErrorCode: 0,
      replicas: [1],
      isr: [1],
    }));
    const counts = new Array<number>(12).fill(0);
    const small = Buffer.from(encodeTelemetryBatch([{ eventName: 'e' }]));
    for (let i = 0; i < 1200; i++) {
      const [message] = batchMessages(
        { value: small, envelope: { ...envelope, batchId: randomUUID() } },
        { maxRecordBatchBytes: 1_000_000, compression: 'gzip' },
      );
      counts[partitionOf({ topic: 't', partitionMetadata, message: message! })]!++;
    }
    // 100 expected per partition; a project-id key would put all 1200 on one.
    for (const count of counts) expect(count).toBeGreaterThan(60);
  });
});
