/**
 * Event identity. Delivery from Kafka is at-least-once, so the same event may be inserted
 * twice; the events table (ReplacingMergeTree, sorting key ending in event_id) collapses rows
 * with equal keys. That only works if a redelivered event gets the same id, so the id is
 * derived from the batch id (chosen once by the gateway, or the sender's Idempotency-Key) and
 * the event's index in the batch: the batch UUID with the index XORed into its last 32 bits.
 * Two different batches' ids collide only if their UUIDs differ in nothing but those bits.
 */

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * A UUID in ClickHouse's binary layout (RowBinary, Native): two UInt64 halves, each
 * little-endian, so the bytes of each half are reversed relative to the text form.
 */
export function uuidToRowBinary(uuid: string, target: Buffer = Buffer.allocUnsafe(16), offset = 0): Buffer {
  if (!isUuid(uuid)) throw new TypeError(`not a UUID: ${JSON.stringify(uuid)}`);
  const hex = uuid.replace(/-/g, '');
  for (let i = 0; i < 8; i++) {
    target[offset + 7 - i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    target[offset + 15 - i] = parseInt(hex.slice(16 + i * 2, 18 + i * 2), 16);
  }
  return target;
}

export function uuidFromRowBinary(bytes: Buffer, offset = 0): string {
  let hex = '';
  for (let i = 7; i >= 0; i--) hex += bytes[offset + i]!.toString(16).padStart(2, '0');
  for (let i = 15; i >= 8; i--) hex += bytes[offset + i]!.toString(16).padStart(2, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Writes the id of event `index` of batch `batchIdRowBinary` at `offset`.
 * NOTE: in the RowBinary layout the UUID's last 4 bytes are bytes 8..11, little-endian, so
 * XORing the index there equals XORing it into the big-endian tail of the text form.
 */
export function writeEventId(batchIdRowBinary: Buffer, index: number, target: Buffer, offset: number): void {
  batchIdRowBinary.copy(target, offset, 0, 16);
  target.writeUInt32LE((batchIdRowBinary.readUInt32LE(8) ^ index) >>> 0, offset + 8);
}

/** The id (text form) the consumer gives event `index` of batch `batchId`. */
export function eventIdFor(batchId: string, index: number): string {
  const out = Buffer.allocUnsafe(16);
  writeEventId(uuidToRowBinary(batchId), index, out, 0);
  return uuidFromRowBinary(out);
}
