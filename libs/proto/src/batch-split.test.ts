import { describe, expect, it } from 'vitest';
import { OversizedEventError, splitTelemetryBatch } from './batch-split.js';
import { decodeTelemetryBatch, encodeTelemetryBatch } from './telemetry-batch.codec.js';

const events = Array.from({ length: 50 }, (_, i) => ({
  eventName: `event_${i}`,
  timestampUs: 1_767_225_600_000_000 + i,
  sessionId: 's'.repeat(10 + (i % 7) * 20),
}));
const batch = Buffer.from(encodeTelemetryBatch(events));

describe('splitTelemetryBatch', () => {
  it('keeps a batch that fits whole', () => {
    expect(splitTelemetryBatch(batch, batch.length)).toEqual([{ bytes: batch, firstEventIndex: 0, eventCount: 50 }]);
  });

  it('cuts at event boundaries into valid batches within the cap, every event once, in order, with its index', () => {
    const parts = splitTelemetryBatch(batch, 700);
    expect(parts.length).toBeGreaterThan(3);
    const rebuilt = parts.flatMap((part) => {
      expect(part.bytes.length).toBeLessThanOrEqual(700);
      const decoded = decodeTelemetryBatch(part.bytes);
      expect(decoded).toHaveLength(part.eventCount);
      return decoded.map((event, i) => ({ index: part.firstEventIndex + i, name: event.eventName }));
    });
    expect(rebuilt).toEqual(events.map((event, index) => ({ index, name: event.eventName })));
    expect(Buffer.concat(parts.map((p) => p.bytes))).toEqual(batch);
  });

  it('carries unknown top-level fields (a newer SDK) without counting them as events', () => {
    const unknownVarint = Buffer.from([0x10, 0x01]); // field 2, varint 1
    const unknownGroup = Buffer.from([0x1b, 0x08, 0x01, 0x1c]); // field 3 group { field 1: 1 }
    const withUnknown = Buffer.concat([unknownVarint, batch, unknownGroup]);
    const parts = splitTelemetryBatch(withUnknown, 700);
    expect(parts.reduce((n, p) => n + p.eventCount, 0)).toBe(50);
    expect(Buffer.concat(parts.map((p) => p.bytes))).toEqual(withUnknown);
  });

  it('refuses an event larger than a part may be', () => {
    const big = Buffer.from(
      encodeTelemetryBatch([{ eventName: 'a' }, { eventName: 'b', sessionId: 'x'.repeat(2000) }]),
    );
    expect(() => splitTelemetryBatch(big, 1000)).toThrow(OversizedEventError);
    expect(() => splitTelemetryBatch(big, 1000)).toThrow(/event 1 takes/);
  });
});
