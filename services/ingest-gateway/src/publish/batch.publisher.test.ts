import { randomUUID } from 'node:crypto';
import { CompressionTypes, recordBatchBound, recordBytes, type Producer } from '@framedeck/kafka';
import { createLogger } from '@framedeck/logging';
import { encodeTelemetryBatch } from '@framedeck/proto';
import { describe, expect, it } from 'vitest';
import { BatchPublisher } from './batch.publisher.js';
import type { BatchMessage } from './batch-messages.js';

type Sent = { acks?: number; compression?: CompressionTypes; messages: BatchMessage[] };

/** A producer stand-in that records each produce call and acknowledges it. */
function recordingProducer() {
  const sent: Sent[] = [];
  const producer = {
    events: { CONNECT: 'connect', DISCONNECT: 'disconnect' },
    on: () => undefined,
    connect: async () => undefined,
    send: async (request: Sent) => {
      sent.push(request);
      return [];
    },
  } as unknown as Producer;
  return { producer, sent };
}

const batchOf = (bytes: number) => ({
  value: Buffer.from(encodeTelemetryBatch([{ eventName: 'e', sessionId: 'x'.repeat(bytes) }])),
  envelope: {
    batchId: randomUUID(),
    projectId: randomUUID(),
    tenantId: randomUUID(),
    receivedAtMs: 1,
    sdkVersion: 't',
    retentionDays: 90,
  },
});

describe('BatchPublisher', () => {
  it('produces with acks=all, gzip and the batch id as key', async () => {
    const { producer, sent } = recordingProducer();
    const publisher = new BatchPublisher(producer, {
      topic: 't',
      lingerMs: 0,
      timeoutMs: 1_000,
      logger: createLogger('test', 'silent'),
      limits: { maxRecordBatchBytes: 1_000_000, compression: 'gzip' },
    });
    const batch = batchOf(10);
    await publisher.publish(batch);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ acks: -1, compression: CompressionTypes.GZIP });
    expect(sent[0]!.messages[0]!.key).toBe(batch.envelope.batchId);
  });

  it('never lets one produce call outgrow the record-batch cap, however many requests share it', async () => {
    const { producer, sent } = recordingProducer();
    const limit = 1_000_000;
    const publisher = new BatchPublisher(producer, {
      topic: 't',
      lingerMs: 50,
      timeoutMs: 1_000,
      logger: createLogger('test', 'silent'),
      limits: { maxRecordBatchBytes: limit, compression: 'none' },
    });
    await Promise.all(Array.from({ length: 7 }, () => publisher.publish(batchOf(300_000))));
    expect(sent.length).toBeGreaterThanOrEqual(3);
    for (const call of sent) {
      const bytes = call.messages.reduce((sum, m) => sum + recordBytes(m), 0);
      expect(recordBatchBound(bytes, 'none')).toBeLessThanOrEqual(limit);
    }
    expect(sent.flatMap((call) => call.messages)).toHaveLength(7);
  });
});
