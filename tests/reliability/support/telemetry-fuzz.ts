import { gzipSync } from 'node:zlib';
import { encodeTelemetryBatch, type TelemetryEventInput } from '@framedeck/proto';
import { Prng } from '../../../libs/sender/src/simulator/prng.js';

/**
 * Seeded generator of hostile TelemetryBatch bodies: same seed, same cases, so a failure
 * reproduces from the seed it prints. Each case names how it was made.
 */
export type FuzzCase = { kind: string; bytes: Buffer };

const WIRE = { varint: 0, fixed64: 1, bytes: 2, startGroup: 3, endGroup: 4, fixed32: 5 } as const;
const SPECIAL_FLOATS = [Number.NaN, Infinity, -Infinity, -0, 3.4e38, -3.4e38, 1e-45, Number.MAX_VALUE];
const SPECIAL_INTS = [0, -1, 1, 2 ** 53, -(2 ** 53), 2 ** 63, -(2 ** 63), 4_102_444_800_000_000];

/** Minimal protobuf wire writer, for bodies the real encoder would never produce. */
export class Wire {
  private readonly parts: Buffer[] = [];

  varint(value: number | bigint): this {
    let v = BigInt.asUintN(64, BigInt(value));
    const out: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      out.push(byte);
    } while (v > 0n);
    this.parts.push(Buffer.from(out));
    return this;
  }

  tag(field: number, wire: number): this {
    return this.varint((BigInt(field) << 3n) | BigInt(wire));
  }

  bytes(field: number, payload: Buffer, declaredLength = payload.length): this {
    this.tag(field, WIRE.bytes).varint(declaredLength);
    this.parts.push(payload);
    return this;
  }

  raw(bytes: Buffer | Uint8Array): this {
    this.parts.push(Buffer.from(bytes));
    return this;
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

export class TelemetryFuzzer {
  private readonly rng: Prng;

  constructor(readonly seed: number) {
    this.rng = new Prng(seed);
  }

  private int(max: number): number {
    return Math.floor(this.rng.next() * max);
  }

  private pick<T>(values: readonly T[]): T {
    return values[this.int(values.length)]!;
  }

  private string(maxLength: number): string {
    const alphabets = ['abc_XYZ-0123456789', 'é漢字🎮\u0000\u202e\ufffd', '\'";--/*\\%_{}<script>'];
    const alphabet = [...this.pick(alphabets)];
    const length = this.int(maxLength + 1);
    let out = '';
    for (let i = 0; i < length; i++) out += this.pick(alphabet);
    return out;
  }

  private number(): number {
    return this.rng.chance(0.3) ? this.pick(SPECIAL_FLOATS) : this.rng.between(-1e6, 1e6);
  }

  /** A well-formed event with values anywhere in their types' ranges (NaN, Infinity, ...). */
  event(): TelemetryEventInput {
    const map = <T>(n: number, value: () => T) =>
      Object.fromEntries(Array.from({ length: n }, () => [this.string(20), value()]));
    return {
      eventName: this.rng.chance(0.9) ? this.string(40) : this.string(400),
      timestampUs: this.rng.chance(0.5) ? Date.now() * 1000 - this.int(1e9) : this.pick(SPECIAL_INTS),
      sessionId: this.string(30),
      playerId: this.string(30),
      position: this.rng.chance(0.7) ? { x: this.number(), y: this.number(), z: this.number() } : undefined,
      mapId: this.string(300),
      fps: this.number(),
      frameTimeMs: this.number(),
      memoryUsedBytes: this.pick(SPECIAL_INTS),
      gpuTimeMs: this.number(),
      attributes: map(this.rng.chance(0.1) ? 200 : this.int(5), () => this.string(50)),
      metrics: map(this.rng.chance(0.1) ? 200 : this.int(5), () => this.number()),
      // Out-of-range enum values too: proto3 keeps unknown enum numbers.
      source: this.pick([0, 1, 2, 3, 999, -1]) as TelemetryEventInput['source'],
      buildId: this.string(20),
      platform: this.string(20),
      engineVersion: this.string(20),
      ...(this.rng.chance(0.5) ? { cameraYaw: this.number() } : {}),
      ...(this.rng.chance(0.5) ? { cameraPitch: this.number() } : {}),
      gameThreadMs: this.number(),
      renderThreadMs: this.number(),
    };
  }

  validBatch(maxEvents = 8): Buffer {
    return Buffer.from(encodeTelemetryBatch(Array.from({ length: 1 + this.int(maxEvents) }, () => this.event())));
  }

  /** One hostile body; `kinds` restricts which mutations are drawn. */
  next(kinds: readonly string[] = FUZZ_KINDS): FuzzCase {
    const kind = this.pick(kinds);
    return { kind, bytes: this.make(kind) };
  }

  private make(kind: string): Buffer {
    switch (kind) {
      case 'valid-extreme-values':
        return this.validBatch();
      case 'bit-flips': {
        const bytes = this.validBatch();
        for (let i = 1 + this.int(8); i > 0; i--) bytes[this.int(bytes.length)]! ^= 1 << this.int(8);
        return bytes;
      }
      case 'truncated': {
        const bytes = this.validBatch();
        return bytes.subarray(0, this.int(bytes.length));
      }
      case 'length-prefix-lie': {
        const event = Buffer.from(encodeTelemetryBatch([this.event()])).subarray(2); // the event's own bytes
        // NOTE: 2^32 + 5 wraps to 5 in a 32-bit length reader: that one may decode.
        const lie = this.pick([event.length + 1 + this.int(1000), 2 ** 31 - 1, 2 ** 32 + 5, 2 ** 62]);
        return new Wire().bytes(1, event, lie).finish();
      }
      case 'unknown-fields': {
        const wire = new Wire().raw(this.validBatch(2));
        for (let i = 1 + this.int(20); i > 0; i--) {
          const field = this.pick([7, 22, 99, 1000, 536_870_911, 2 + this.int(100)]);
          const type = this.pick([WIRE.varint, WIRE.fixed64, WIRE.bytes, WIRE.fixed32]);
          wire.tag(field, type);
          if (type === WIRE.varint) wire.varint(this.pick(SPECIAL_INTS));
          else if (type === WIRE.fixed64) wire.raw(Buffer.alloc(8, 0xff));
          else if (type === WIRE.fixed32) wire.raw(Buffer.alloc(4, 0x7f));
          else wire.varint(3).raw(Buffer.from('abc'));
        }
        // Unknown fields inside an event, too.
        const inner = new Wire().bytes(3, Buffer.from('s')).tag(4242, WIRE.varint).varint(1).finish();
        return wire.bytes(1, inner).finish();
      }
      case 'deep-groups': {
        // Nested start-group tags in an event: a recursive skipper must not blow the stack
        // (or must fail cleanly when it does).
        const depth = this.pick([100, 5_000, 40_000]);
        const open = new Wire().tag(99, WIRE.startGroup).finish();
        const close = new Wire().tag(99, WIRE.endGroup).finish();
        const payload = Buffer.concat([
          Buffer.alloc(open.length * depth, open),
          this.rng.chance(0.5) ? Buffer.alloc(close.length * depth, close) : Buffer.alloc(0),
        ]);
        return new Wire().bytes(1, payload).finish();
      }
      case 'deep-messages': {
        // Length-delimited fields nested in each other (position inside position inside ...).
        let inner: Buffer = Buffer.alloc(0);
        for (let i = this.pick([50, 500, 5_000]); i > 0; i--) inner = new Wire().bytes(5, inner).finish();
        return new Wire().bytes(1, inner).finish();
      }
      case 'huge-repeated': {
        // Many tiny events, or one event with thousands of map entries.
        if (this.rng.chance(0.5)) {
          const event = new Wire().bytes(1, Buffer.from('e')).bytes(3, Buffer.from('s')).finish();
          const one = new Wire().bytes(1, event).finish();
          return Buffer.alloc(one.length * this.pick([1_000, 20_000]), one);
        }
        const entry = new Wire().bytes(1, Buffer.from('k')).bytes(2, Buffer.from('v')).finish();
        const field = new Wire().bytes(this.pick([12, 13]), entry).finish();
        const event = Buffer.alloc(field.length * this.pick([1_000, 10_000]), field);
        return new Wire().bytes(1, event).finish();
      }
      case 'nan-metrics': {
        const entry = new Wire()
          .bytes(1, Buffer.from('m'))
          .tag(2, WIRE.fixed64)
          .raw(float64(this.pick(SPECIAL_FLOATS)));
        const event = new Wire()
          .bytes(1, Buffer.from('e'))
          .bytes(3, Buffer.from('s'))
          .bytes(13, entry.finish())
          .tag(8, WIRE.fixed32)
          .raw(float32(this.pick(SPECIAL_FLOATS)))
          .finish();
        return new Wire().bytes(1, event).finish();
      }
      case 'wrong-wire-types': {
        const field = this.pick([1, 2, 3, 5, 8, 12, 13, 14, 18]);
        const type = this.pick([WIRE.varint, WIRE.fixed64, WIRE.bytes, WIRE.fixed32, WIRE.endGroup, 6, 7]);
        const event = new Wire().tag(field, type).raw(Buffer.alloc(8, 0x01)).finish();
        return this.rng.chance(0.5)
          ? new Wire().bytes(1, event).finish()
          : new Wire().tag(1, type).raw(Buffer.alloc(8, 0x01)).finish();
      }
      case 'varint-overflow':
        return new Wire()
          .bytes(
            1,
            new Wire()
              .tag(2, WIRE.varint)
              .raw(Buffer.alloc(11 + this.int(5), 0xff))
              .finish(),
          )
          .finish();
      case 'invalid-utf8':
        return new Wire()
          .bytes(1, new Wire().bytes(1, Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80])).finish())
          .finish();
      case 'random-bytes':
        return Buffer.from(Array.from({ length: this.int(2_000) }, () => this.int(256)));
      case 'empty':
        return Buffer.alloc(0);
      default:
        throw new Error(`unknown fuzz kind ${kind}`);
    }
  }

  /** A gzip body, intact or damaged (truncated, bit-flipped, trailing garbage, a bomb-ish ratio). */
  gzipCase(): FuzzCase {
    const kind = this.pick(['gzip-intact', 'gzip-truncated', 'gzip-bit-flips', 'gzip-trailing-garbage', 'gzip-zeros']);
    const plain = this.validBatch(4);
    let bytes = gzipSync(kind === 'gzip-zeros' ? Buffer.alloc(this.pick([1 << 20, 8 << 20])) : plain);
    if (kind === 'gzip-truncated') bytes = bytes.subarray(0, this.int(bytes.length));
    if (kind === 'gzip-bit-flips')
      for (let i = 1 + this.int(4); i > 0; i--) bytes[this.int(bytes.length)]! ^= 1 << this.int(8);
    if (kind === 'gzip-trailing-garbage') bytes = Buffer.concat([bytes, Buffer.from('garbage')]);
    return { kind, bytes };
  }
}

export const FUZZ_KINDS = [
  'valid-extreme-values',
  'bit-flips',
  'truncated',
  'length-prefix-lie',
  'unknown-fields',
  'deep-groups',
  'deep-messages',
  'huge-repeated',
  'nan-metrics',
  'wrong-wire-types',
  'varint-overflow',
  'invalid-utf8',
  'random-bytes',
  'empty',
] as const;

function float64(value: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(value);
  return b;
}

function float32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeFloatLE(value);
  return b;
}
