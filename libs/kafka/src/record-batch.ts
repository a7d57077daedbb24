import { CompressionTypes } from 'kafkajs';

export { CompressionTypes };
import type { KafkaConfig } from '@framedeck/config';

/**
 * Upper bounds on the size of what we produce, so that no record batch ever exceeds the
 * broker's `max.message.bytes` (the broker refuses the whole produce request otherwise, and
 * retrying it cannot help). Bounds, not estimates: every varint is counted at its widest, and
 * gzip is assumed to expand incompressible input as much as zlib's deflateBound allows.
 */

type Compression = KafkaConfig['producer']['compression'];
export type SizedRecord = {
  key?: string | Buffer | null;
  value: Buffer | null;
  headers?: Record<string, string | Buffer>;
};

/** A v2 record batch's header, outside the compressed part. */
const RECORD_BATCH_HEADER_BYTES = 61;
/** Per record: length, attributes, timestamp delta, offset delta, key and value lengths, header count (widest varints). */
const RECORD_OVERHEAD_BYTES = 5 + 1 + 10 + 5 + 5 + 5 + 5;
/** Per header: name and value lengths. */
const HEADER_OVERHEAD_BYTES = 5 + 5;
/** zlib's gzip wrapper (18) and deflate's stored-block framing constant (7), plus slack. */
const GZIP_FIXED_BYTES = 18 + 7 + 64;

/**
 * Room every events record leaves under the cap for what the consumer adds when it parks the
 * record on the dead-letter topic (reason ≤ 1000 bytes, origin, time): a record that fit the
 * events topic must fit the dead-letter topic too.
 */
export const DEAD_LETTER_HEADROOM_BYTES = 2048;

export function compressionType(compression: Compression): CompressionTypes {
  return compression === 'gzip' ? CompressionTypes.GZIP : CompressionTypes.None;
}

/** The bytes one record takes inside an uncompressed record batch, at most. */
export function recordBytes(record: SizedRecord): number {
  let bytes = RECORD_OVERHEAD_BYTES + byteLength(record.key) + byteLength(record.value);
  for (const [name, value] of Object.entries(record.headers ?? {})) {
    bytes += HEADER_OVERHEAD_BYTES + Buffer.byteLength(name) + byteLength(value);
  }
  return bytes;
}

/** The largest record batch that records of `recordsBytes` in all can make. */
export function recordBatchBound(recordsBytes: number, compression: Compression): number {
  const body = compression === 'gzip' ? deflateBound(recordsBytes) + GZIP_FIXED_BYTES : recordsBytes;
  return RECORD_BATCH_HEADER_BYTES + body;
}

/**
 * The largest value a single record may carry, given the bytes of everything else in it (key,
 * headers) and the room to keep free, so that its record batch stays within `limit`.
 */
export function largestValueBytes(
  limit: number,
  compression: Compression,
  otherBytes: number,
  headroom = DEAD_LETTER_HEADROOM_BYTES,
): number {
  const fixed = RECORD_BATCH_HEADER_BYTES + (compression === 'gzip' ? GZIP_FIXED_BYTES : 0);
  const records = limit - headroom - fixed;
  // deflateBound(n) ≤ n · (1 + 1/4096 + 1/16384 + 1/2^25): invert it, rounding down.
  const fits = compression === 'gzip' ? Math.floor(records / (1 + 1 / 4096 + 1 / 16384 + 2 ** -25)) : records;
  return fits - RECORD_OVERHEAD_BYTES - otherBytes;
}

/**
 * Splits `records` (in order) into groups whose record batch stays within `limit`. One
 * produce call per group keeps every per-partition batch within it too, whatever the
 * partitioner does. A record that alone exceeds the limit is a bug upstream (the caller
 * splits values first) and throws rather than being sent to a certain refusal.
 */
export function packRecordBatches<T>(
  records: readonly T[],
  sizeOf: (record: T) => number,
  limit: number,
  compression: Compression,
): T[][] {
  const groups: T[][] = [];
  let group: T[] = [];
  let bytes = 0;
  for (const record of records) {
    const size = sizeOf(record);
    if (recordBatchBound(size, compression) > limit) {
      throw new RangeError(`a ${size}-byte record cannot fit a ${limit}-byte record batch`);
    }
    if (group.length > 0 && recordBatchBound(bytes + size, compression) > limit) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(record);
    bytes += size;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** zlib's deflateBound for the default window and memory level (what KafkaJS's gzip uses). */
function deflateBound(n: number): number {
  return n + Math.floor(n / 4096) + Math.floor(n / 16384) + Math.floor(n / 2 ** 25);
}

function byteLength(value: string | Buffer | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'string' ? Buffer.byteLength(value) : value.length;
}
