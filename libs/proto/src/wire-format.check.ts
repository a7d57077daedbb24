/**
 * A strict pass over the protobuf wire format of a TelemetryBatch, run before protobufjs
 * decodes it. protobufjs is lenient where the protobuf encoding rules are not: it reads a
 * varint of more than 10 bytes, or a known field sent with another wire type, as if nothing
 * were wrong (measured: `08 ff×11 01` decoded as an empty batch). Such bytes come from a
 * broken encoder, and a batch from a broken encoder is refused (400), not half-read.
 *
 * What is checked: every tag is a varint of at most 5 bytes with a field number of at least 1;
 * every varint value is at most 10 bytes; fixed-width and length-delimited values fit in
 * their enclosing message; wire types are 0, 1, 2 or 5 (or a group properly closed, for
 * unknown fields only); and a field the schema knows has the schema's wire type, its
 * sub-messages checked the same way. Unknown fields are otherwise skipped, as protobuf
 * requires (newer SDKs may add fields).
 */

export const WIRE = { varint: 0, i64: 1, len: 2, startGroup: 3, endGroup: 4, i32: 5 } as const;
type WireType = (typeof WIRE)[keyof typeof WIRE];

/** Field number → its wire type, or the shape of the message a length-delimited field holds. */
export type MessageShape = { readonly [field: number]: WireType | MessageShape };

const VECTOR3: MessageShape = { 1: WIRE.i32, 2: WIRE.i32, 3: WIRE.i32 };
const STRING_MAP_ENTRY: MessageShape = { 1: WIRE.len, 2: WIRE.len };
const DOUBLE_MAP_ENTRY: MessageShape = { 1: WIRE.len, 2: WIRE.i64 };

/** proto/telemetry/v1/telemetry.proto as wire types (a unit test compares the two). */
export const GAME_TELEMETRY_EVENT_SHAPE: MessageShape = {
  1: WIRE.len, // event_name
  2: WIRE.varint, // timestamp_us
  3: WIRE.len, // session_id
  4: WIRE.len, // player_id
  5: VECTOR3, // position
  6: WIRE.len, // map_id
  8: WIRE.i32, // fps
  9: WIRE.i32, // frame_time_ms
  10: WIRE.varint, // memory_used_bytes
  11: WIRE.i32, // gpu_time_ms
  12: STRING_MAP_ENTRY, // attributes
  13: DOUBLE_MAP_ENTRY, // metrics
  14: WIRE.varint, // source
  15: WIRE.len, // build_id
  16: WIRE.len, // platform
  17: WIRE.len, // engine_version
  18: WIRE.i32, // camera_yaw
  19: WIRE.i32, // camera_pitch
  20: WIRE.i32, // game_thread_ms
  21: WIRE.i32, // render_thread_ms
};
export const TELEMETRY_BATCH_SHAPE: MessageShape = { 1: GAME_TELEMETRY_EVENT_SHAPE };

const MAX_VARINT_BYTES = 10;
const MAX_TAG_BYTES = 5;
const MAX_GROUP_DEPTH = 32;

class WireFormatError extends Error {}

/** Undefined when `bytes` is a well-formed message of `shape`; otherwise what is wrong, and where. */
export function wireFormatProblem(bytes: Uint8Array, shape: MessageShape = TELEMETRY_BATCH_SHAPE): string | undefined {
  const scanner = new WireScanner(bytes);
  try {
    scanner.message(bytes.length, shape);
    return undefined;
  } catch (error) {
    if (error instanceof WireFormatError) return `${error.message} (at byte ${scanner.pos})`;
    throw error;
  }
}

class WireScanner {
  pos = 0;

  constructor(private readonly bytes: Uint8Array) {}

  message(end: number, shape: MessageShape | undefined): void {
    while (this.pos < end) {
      const [field, wire] = this.tag(end);
      if (wire === WIRE.endGroup) throw new WireFormatError(`end-group tag of field ${field} outside a group`);
      const expected = shape?.[field];
      if (expected !== undefined) {
        const expectedWire = typeof expected === 'number' ? expected : WIRE.len;
        if (wire !== expectedWire) {
          throw new WireFormatError(`field ${field} has wire type ${wire}; the schema says ${expectedWire}`);
        }
      }
      this.value(field, wire, end, typeof expected === 'object' ? expected : undefined, 0);
    }
  }

  private tag(end: number): [field: number, wire: number] {
    const tag = this.varint(end, MAX_TAG_BYTES);
    const field = Math.floor(tag / 8);
    if (field < 1 || field > 0x1fffffff) throw new WireFormatError(`invalid field number ${field}`);
    return [field, tag % 8];
  }

  private value(field: number, wire: number, end: number, nested: MessageShape | undefined, depth: number): void {
    switch (wire) {
      case WIRE.varint:
        this.varint(end, MAX_VARINT_BYTES);
        return;
      case WIRE.i64:
        return this.skip(8, end);
      case WIRE.i32:
        return this.skip(4, end);
      case WIRE.len: {
        const length = this.varint(end, MAX_VARINT_BYTES);
        if (length > end - this.pos) throw new WireFormatError(`field ${field} is longer than its message`);
        const stop = this.pos + length;
        if (nested) this.message(stop, nested);
        this.pos = stop;
        return;
      }
      case WIRE.startGroup:
        return this.group(field, end, depth + 1);
      default:
        throw new WireFormatError(`field ${field} has invalid wire type ${wire}`);
    }
  }

  /** An unknown field's group (proto2): skipped up to its matching end-group tag. */
  private group(field: number, end: number, depth: number): void {
    if (depth > MAX_GROUP_DEPTH) throw new WireFormatError('groups nested too deep');
    while (this.pos < end) {
      const [inner, wire] = this.tag(end);
      if (wire === WIRE.endGroup) {
        if (inner === field) return;
        throw new WireFormatError(`end-group tag of field ${inner} closes the group of field ${field}`);
      }
      this.value(inner, wire, end, undefined, depth);
    }
    throw new WireFormatError(`group of field ${field} is not closed`);
  }

  /** A varint of at most `maxBytes` bytes; its value (exact up to 2^53, enough for lengths and tags). */
  private varint(end: number, maxBytes: number): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < maxBytes; i++) {
      if (this.pos >= end) throw new WireFormatError('truncated varint');
      const byte = this.bytes[this.pos++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
    throw new WireFormatError(`varint longer than ${maxBytes} bytes`);
  }

  private skip(count: number, end: number): void {
    if (count > end - this.pos) throw new WireFormatError('truncated fixed-width value');
    this.pos += count;
  }
}
