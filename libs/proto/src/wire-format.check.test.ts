import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { BatchDecodeError, decodeTelemetryBatch, encodeTelemetryBatch } from './index.js';
import {
  GAME_TELEMETRY_EVENT_SHAPE,
  TELEMETRY_BATCH_SHAPE,
  WIRE,
  wireFormatProblem,
  type MessageShape,
} from './wire-format.check.js';

const ff = (n: number) => Array<number>(n).fill(0xff);
const lengthDelimited = (tag: number, inner: number[]) => [tag, inner.length, ...inner];

describe('wire format check', () => {
  it('refuses a varint longer than 10 bytes (08 ff×11 01), which protobufjs alone reads as an empty batch', () => {
    const bytes = Buffer.from([0x08, ...ff(11), 0x01]);
    expect(wireFormatProblem(bytes)).toMatch(/varint longer than 10 bytes|wire type/);
    expect(() => decodeTelemetryBatch(bytes)).toThrow(BatchDecodeError);
  });

  it('refuses an over-long varint wherever it is: an unknown field, an event field', () => {
    const unknownTopLevel = [0x98, 0x06, ...ff(10), 0x01]; // field 99, varint of 11 bytes
    expect(wireFormatProblem(Buffer.from(unknownTopLevel))).toMatch(/varint longer than 10 bytes/);
    const inEvent = lengthDelimited(0x0a, [0x10, ...ff(10), 0x01]); // timestamp_us of 11 bytes
    expect(wireFormatProblem(Buffer.from(inEvent))).toMatch(/varint longer than 10 bytes/);
    expect(() => decodeTelemetryBatch(Buffer.from(inEvent))).toThrow(BatchDecodeError);
  });

  it('accepts a varint of exactly 10 bytes (a negative int64)', () => {
    const bytes = Buffer.from(lengthDelimited(0x0a, [0x10, ...ff(9), 0x01]));
    expect(wireFormatProblem(bytes)).toBeUndefined();
    expect(decodeTelemetryBatch(bytes)[0]!.timestampUs).toBe(-1);
  });

  it.each([
    ['events sent as a varint', [0x08, 0x05]],
    ['event_name sent as fixed32', lengthDelimited(0x0a, [0x0d, 1, 2, 3, 4])],
    ['position.x sent as a varint', lengthDelimited(0x0a, lengthDelimited(0x2a, [0x08, 0x01]))],
    ['a metrics value sent as a string', lengthDelimited(0x0a, lengthDelimited(0x6a, [0x0a, 1, 0x61, 0x12, 1, 0x62]))],
  ])('refuses a known field with the wrong wire type: %s', (_name, bytes) => {
    expect(wireFormatProblem(Buffer.from(bytes))).toMatch(/wire type/);
    expect(() => decodeTelemetryBatch(Buffer.from(bytes))).toThrow(BatchDecodeError);
  });

  it.each([
    ['a length running past the message', [0x0a, 0x05, 0x01]],
    ['a truncated varint', [0x08 | 0x10, 0x80]],
    ['a truncated fixed64', [0x99, 0x06, 1, 2, 3]],
    ['wire type 6', [0x0e]],
    ['field number 0', [0x00, 0x01]],
    ['a stray end-group tag', [0x9c, 0x06]],
    ['an unclosed group', [0x9b, 0x06, 0x08, 0x01]],
  ])('refuses %s', (_name, bytes) => {
    expect(wireFormatProblem(Buffer.from(bytes))).toBeDefined();
  });

  it('skips unknown fields of every wire type, groups included (newer SDKs may add fields)', () => {
    const unknown = [
      ...[0x98, 0x06, 0x96, 0x01], // field 99 varint
      ...[0x99, 0x06, 1, 2, 3, 4, 5, 6, 7, 8], // field 99 fixed64
      ...[0x9a, 0x06, 0x02, 0xff, 0x00], // field 99 bytes (not UTF-8: unknown, never read)
      ...[0x9d, 0x06, 1, 2, 3, 4], // field 99 fixed32
      ...[0x9b, 0x06, 0x08, 0x01, 0x9c, 0x06], // field 99 group holding field 1
    ];
    const event = [...encodeTelemetryBatch([{ eventName: 'a', sessionId: 's' }]).subarray(2), ...unknown];
    const bytes = Buffer.from([...lengthDelimited(0x0a, event), ...unknown]);
    expect(wireFormatProblem(bytes)).toBeUndefined();
    expect(decodeTelemetryBatch(bytes)[0]!.eventName).toBe('a');
  });

  // What the encoder writes, every field set, passes too: the codec's round-trip test decodes
  // through this check (decodeTelemetryBatch runs it first).

  it('has the wire types of proto/telemetry/v1/telemetry.proto', () => {
    const root = protobuf.loadSync(
      fileURLToPath(new URL('../../../proto/telemetry/v1/telemetry.proto', import.meta.url)),
    );
    const fromProto = (type: protobuf.Type): MessageShape => {
      const shape: Record<number, MessageShape[number]> = {};
      for (const field of type.fieldsArray) {
        field.resolve();
        if (field instanceof protobuf.MapField) {
          const value = field.type === 'double' ? WIRE.i64 : WIRE.len;
          shape[field.id] = { 1: WIRE.len, 2: value };
        } else if (field.resolvedType instanceof protobuf.Type) shape[field.id] = fromProto(field.resolvedType);
        else shape[field.id] = wireTypeOf(field.resolvedType ? 'enum' : field.type);
      }
      return shape;
    };
    expect(fromProto(root.lookupType('telemetry.v1.GameTelemetryEvent'))).toEqual(GAME_TELEMETRY_EVENT_SHAPE);
    expect(fromProto(root.lookupType('telemetry.v1.TelemetryBatch'))).toEqual(TELEMETRY_BATCH_SHAPE);
  });
});

function wireTypeOf(type: string): (typeof WIRE)[keyof typeof WIRE] {
  if (['float', 'fixed32', 'sfixed32'].includes(type)) return WIRE.i32;
  if (['double', 'fixed64', 'sfixed64'].includes(type)) return WIRE.i64;
  if (['string', 'bytes'].includes(type)) return WIRE.len;
  return WIRE.varint;
}
