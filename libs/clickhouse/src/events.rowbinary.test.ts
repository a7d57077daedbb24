import { describe, expect, it } from 'vitest';
import { uuidToRowBinary } from './event-id.js';
import { EventsRowBinaryBlock, type EventRowInput } from './events.rowbinary.js';

const context = {
  projectId: uuidToRowBinary('11111111-1111-1111-1111-111111111111'),
  batchId: uuidToRowBinary('22222222-2222-2222-2222-222222222222'),
  sdkVersion: 'sdk',
  receivedAtSeconds: 1_700_000_000,
  retentionDays: 30,
  firstEventIndex: 70_000,
};
const event: EventRowInput = {
  eventName: 'e',
  timestampUs: 1_700_000_000_500_000,
  sessionId: 's',
  playerId: '',
  position: null,
  mapId: '',
  fps: 0,
  frameTimeMs: 0,
  memoryUsedBytes: 0,
  gpuTimeMs: 0,
  attributes: {},
  metrics: {},
  source: 1,
  buildId: '',
  platform: '',
  engineVersion: '',
  cameraYaw: null,
  cameraPitch: 0,
  gameThreadMs: 0,
  renderThreadMs: 0,
};

describe('EventsRowBinaryBlock', () => {
  it('writes the columns in insert order with exact RowBinary layouts', () => {
    const block = new EventsRowBinaryBlock();
    block.append(context, event, 0);
    const bytes = block.bytes();
    // ids (32) | "e" | Int64 µs | DateTime | "s" | "" | has_position + xyz | ""
    expect(bytes.subarray(32, 34)).toEqual(Buffer.from([1, 0x65]));
    expect(bytes.readBigInt64LE(34)).toBe(1_700_000_000_500_000n);
    expect(bytes.readUInt32LE(42)).toBe(1_700_000_000);
    const tail = bytes.subarray(bytes.length - 4 - 2 - 4 - 4 - 8 - 5 - 1);
    // camera_yaw NULL (1), camera_pitch 0 (0 + Float32), two Float32, "sdk", received_at,
    // retention_days (UInt16), batch_first_index (UInt32)
    expect(tail[0]).toBe(1);
    expect(tail[1]).toBe(0);
    expect(tail.readFloatLE(2)).toBe(0);
    expect(bytes.readUInt32LE(bytes.length - 10)).toBe(1_700_000_000);
    expect(bytes.readUInt16LE(bytes.length - 6)).toBe(30);
    expect(bytes.readUInt32LE(bytes.length - 4)).toBe(70_000);
    expect(block.rows).toBe(1);
  });

  it('length-prefixes multi-byte and long strings by their UTF-8 size, and grows past its capacity', () => {
    const block = new EventsRowBinaryBlock(0);
    const long = 'é'.repeat(300); // 600 UTF-8 bytes: a two-byte varint
    for (let i = 0; i < 3000; i++) block.append(context, { ...event, eventName: long }, i);
    const bytes = block.bytes();
    expect(bytes.subarray(32, 34)).toEqual(Buffer.from([0xd8, 0x04]));
    expect(bytes.subarray(34, 634).toString('utf8')).toBe(long);
    expect(block.rows).toBe(3000);
    expect(block.byteLength).toBeGreaterThan(1 << 20);
    block.reset();
    expect(block.rows).toBe(0);
    expect(block.byteLength).toBe(0);
  });

  it('writes negative Int64 values in two’s complement', () => {
    const block = new EventsRowBinaryBlock();
    block.append(context, { ...event, timestampUs: -5 }, 0);
    expect(block.bytes().readBigInt64LE(34)).toBe(-5n);
  });
});
