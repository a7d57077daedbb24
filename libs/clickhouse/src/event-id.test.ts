import { describe, expect, it } from 'vitest';
import { eventIdFor, uuidFromRowBinary, uuidToRowBinary } from './event-id.js';

describe('event identity', () => {
  const batch = '00112233-4455-6677-8899-aabbccddeeff';

  it('lays a UUID out as ClickHouse does: two little-endian UInt64 halves', () => {
    expect(uuidToRowBinary(batch).toString('hex')).toBe('7766554433221100ffeeddccbbaa9988');
    expect(uuidFromRowBinary(uuidToRowBinary(batch))).toBe(batch);
  });

  it('derives a stable id per (batch, index), distinct across indexes', () => {
    expect(eventIdFor(batch, 0)).toBe(batch);
    expect(eventIdFor(batch, 1)).toBe('00112233-4455-6677-8899-aabbccddeefe');
    expect(eventIdFor(batch, 0x01020304)).toBe('00112233-4455-6677-8899-aabbcddfedfb');
    const ids = new Set(Array.from({ length: 5000 }, (_, i) => eventIdFor(batch, i)));
    expect(ids.size).toBe(5000);
    expect(eventIdFor(batch, 42)).toBe(eventIdFor(batch, 42));
  });

  it('refuses text that is not a UUID', () => {
    expect(() => uuidToRowBinary('not-a-uuid')).toThrow(TypeError);
  });
});
