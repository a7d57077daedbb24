import { eventIdFor } from '@framedeck/clickhouse';
import { telemetry, TelemetrySource } from '@framedeck/proto';
import { describe, expect, it } from 'vitest';
import { readBatch, validateBatch } from './batch.processor.js';

const receivedAtMs = Date.UTC(2026, 10, 23, 12);
const envelope = {
  batchId: '0b8f4c1e-5a57-4a39-9c1c-1f0c2a5d9e01',
  projectId: '6f1d2b61-0a3b-4e0b-8f3e-2a7c7d1e4f52',
  tenantId: '9c0e8a34-7d0f-4f7e-b1c5-3e6a2d8f1b73',
  receivedAtMs,
  sdkVersion: 'test',
  eventCount: 4,
  firstEventIndex: 0,
  retentionDays: 90,
};
const valid = (name: string) =>
  new telemetry.v1.GameTelemetryEvent({ eventName: name, sessionId: 's', timestampUs: receivedAtMs * 1000 });

describe('validateBatch', () => {
  it('keeps valid events with their index in the batch and counts the rest per reason', () => {
    const nameless = new telemetry.v1.GameTelemetryEvent({ eventName: '', sessionId: 's', timestampUs: 1 });
    const result = validateBatch({ envelope, events: [nameless, valid('a'), nameless, valid('b')] });
    expect(result.accepted.map((a) => [a.index, a.event.eventName])).toEqual([
      [1, 'a'],
      [3, 'b'],
    ]);
    expect(result.rejections).toHaveLength(1);
    expect(result.rejections[0]).toMatchObject({
      projectId: envelope.projectId,
      batchId: envelope.batchId,
      day: '2026-11-23',
      count: 2,
    });
  });

  it('numbers the events of a part of a split batch from its first index, and keys its rejections apart', () => {
    const nameless = new telemetry.v1.GameTelemetryEvent({ eventName: '', sessionId: 's', timestampUs: 1 });
    const part = validateBatch({ envelope: { ...envelope, firstEventIndex: 1000 }, events: [valid('a'), nameless] });
    expect(part.accepted.map((a) => a.index)).toEqual([1000]);
    expect(part.rejections[0]!.batchId).toBe(eventIdFor(envelope.batchId, 1000));
    expect(part.rejections[0]!.batchId).not.toBe(envelope.batchId);
  });

  it('stores every event of a CI key’s batch as automated, and keeps the events’ own source otherwise', () => {
    const claimed = [TelemetrySource.TELEMETRY_SOURCE_PLAYER, TelemetrySource.TELEMETRY_SOURCE_UNSPECIFIED];
    const events = () => claimed.map((source) => Object.assign(valid('a'), { source }));
    const synthetic = validateBatch({ envelope: { ...envelope, synthetic: true }, events: events() });
    expect(synthetic.accepted.map((a) => a.event.source)).toEqual([
      TelemetrySource.TELEMETRY_SOURCE_AUTOMATED,
      TelemetrySource.TELEMETRY_SOURCE_AUTOMATED,
    ]);
    expect(validateBatch({ envelope, events: events() }).accepted.map((a) => a.event.source)).toEqual(claimed);
  });

  it('has no rejection rows when every event is valid', () => {
    expect(validateBatch({ envelope, events: [valid('a')] }).rejections).toEqual([]);
  });
});

describe('readBatch', () => {
  it('dead-letters a message without envelope headers or value', () => {
    expect(readBatch({ value: null, headers: {} })).toMatchObject({ kind: 'dead-letter' });
  });
});
