/**
 * Splits an encoded TelemetryBatch into smaller TelemetryBatches at event boundaries, byte for
 * byte: a batch is a sequence of top-level fields, and any run of them is itself a valid
 * batch. Each part remembers the index of its first event in the whole batch, so event ids
 * (batch id + index) are the same whether a batch travelled whole or in parts.
 *
 * Runs on bytes that already passed decodeTelemetryBatch (the strict wire check), so the
 * walk below only has to find field boundaries.
 */

export type BatchPart = { bytes: Buffer; firstEventIndex: number; eventCount: number };

/** One event alone is larger than a part may be: it cannot travel at all. */
export class OversizedEventError extends Error {
  override readonly name = 'OversizedEventError';
  constructor(
    readonly eventIndex: number,
    readonly eventBytes: number,
    readonly maxPartBytes: number,
  ) {
    super(`event ${eventIndex} takes ${eventBytes} bytes, more than the ${maxPartBytes} a message may carry`);
  }
}

const EVENTS_FIELD = 1;
const WIRE_LEN = 2;

export function splitTelemetryBatch(bytes: Buffer, maxPartBytes: number): BatchPart[] {
  const parts: BatchPart[] = [];
  let partStart = 0;
  let partFirstEvent = 0;
  let eventIndex = 0;
  let offset = 0;
  while (offset < bytes.length) {
    const fieldStart = offset;
    const tag = readVarint(bytes, offset);
    offset = tag.next;
    const isEvent = Math.floor(tag.value / 8) === EVENTS_FIELD && tag.value % 8 === WIRE_LEN;
    offset = skipValue(bytes, offset, tag.value % 8);
    if (isEvent && offset - fieldStart > maxPartBytes) {
      throw new OversizedEventError(eventIndex, offset - fieldStart, maxPartBytes);
    }
    if (offset - partStart > maxPartBytes) {
      parts.push({
        bytes: bytes.subarray(partStart, fieldStart),
        firstEventIndex: partFirstEvent,
        eventCount: eventIndex - partFirstEvent,
      });
      partStart = fieldStart;
      partFirstEvent = eventIndex;
    }
    if (isEvent) eventIndex++;
  }
  parts.push({
    bytes: bytes.subarray(partStart),
    firstEventIndex: partFirstEvent,
    eventCount: eventIndex - partFirstEvent,
  });
  return parts;
}

function readVarint(bytes: Buffer, offset: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  for (;;) {
    const byte = bytes[offset++];
    if (byte === undefined) throw new RangeError('truncated varint');
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value, next: offset };
    scale *= 128;
  }
}

/** The offset after a field's value; an unknown field's group (proto2) ends at its end-group tag. */
function skipValue(bytes: Buffer, offset: number, wireType: number): number {
  switch (wireType) {
    case 0:
      return readVarint(bytes, offset).next;
    case 1:
      return offset + 8;
    case 2: {
      const length = readVarint(bytes, offset);
      return length.next + length.value;
    }
    case 5:
      return offset + 4;
    case 3:
      for (;;) {
        const tag = readVarint(bytes, offset);
        if (tag.value % 8 === 4) return tag.next;
        offset = skipValue(bytes, tag.next, tag.value % 8);
      }
    default:
      throw new RangeError(`wire type ${wireType} in a batch`);
  }
}
