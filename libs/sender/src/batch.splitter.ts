import { gzipSync } from 'node:zlib';
import { encodedEventSize, encodeTelemetryBatch, type TelemetryEventInput } from '@framedeck/proto';

/** Spec: at most 126,000 bytes as sent (after gzip). */
export const MAX_BODY_BYTES = 126_000;
/** The gateway's default cap on a body's inflated size; bodies stay well under it. */
export const MAX_INFLATED_BYTES = 4 * 1024 * 1024;

export type EncodedBody = {
  /** gzip-compressed TelemetryBatch */
  body: Buffer;
  /** the events it carries, in order */
  events: readonly TelemetryEventInput[];
  rawBytes: number;
};

export type SplitOptions = { maxBodyBytes?: number; maxInflatedBytes?: number; maxEventsPerBody?: number };

/**
 * Encodes events into as few gzip bodies as fit the limits, preserving order. The raw size of
 * a chunk is aimed at what the last chunks compressed to; a body that still comes out too big
 * is split in half and retried, so the result is always within `maxBodyBytes`.
 */
export function splitIntoBodies(events: readonly TelemetryEventInput[], options: SplitOptions = {}): EncodedBody[] {
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const maxRaw = Math.floor((options.maxInflatedBytes ?? MAX_INFLATED_BYTES) * 0.9);
  const maxEvents = options.maxEventsPerBody ?? 20_000;
  const bodies: EncodedBody[] = [];
  let ratio = 4; // raw bytes per gzip byte; refined as bodies are made
  let start = 0;
  while (start < events.length) {
    const target = Math.min(maxRaw, Math.floor(maxBody * ratio * 0.9));
    let end = start;
    let raw = 0;
    while (end < events.length && end - start < maxEvents) {
      const size = encodedEventSize(events[end]!);
      if (end > start && raw + size > target) break;
      raw += size;
      end++;
    }
    const made = encodeRange(events.slice(start, end), maxBody);
    for (const body of made) {
      ratio = Math.max(1, body.rawBytes / body.body.length);
      bodies.push(body);
    }
    start = end;
  }
  return bodies;
}

function encodeRange(events: readonly TelemetryEventInput[], maxBody: number): EncodedBody[] {
  const raw = encodeTelemetryBatch(events);
  const body = gzipSync(raw, { level: 6 });
  if (body.length <= maxBody) return [{ body, events, rawBytes: raw.length }];
  if (events.length === 1) {
    throw new RangeError(`one event compresses to ${body.length} bytes, over the ${maxBody}-byte body limit`);
  }
  const half = Math.ceil(events.length / 2);
  return [...encodeRange(events.slice(0, half), maxBody), ...encodeRange(events.slice(half), maxBody)];
}
