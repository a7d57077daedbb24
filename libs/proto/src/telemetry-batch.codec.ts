import './int64-as-number.js';
import { telemetry } from './generated/telemetry.js';
import { wireFormatProblem } from './wire-format.check.js';

export { telemetry };
const { GameTelemetryEvent, TelemetryBatch } = telemetry.v1;

/** An event as a sender builds it (every field optional, as in proto3). */
export type TelemetryEventInput = telemetry.v1.GameTelemetryEvent.$Properties;
/**
 * A decoded event: scalars hold their proto3 defaults when absent, and cameraYaw/cameraPitch
 * are null when not sent (field presence: 0 means "facing North", not "missing").
 */
export type TelemetryEvent = telemetry.v1.GameTelemetryEvent;
export const TelemetrySource = telemetry.v1.TelemetrySource;
export type TelemetrySource = telemetry.v1.TelemetrySource;

/** The bytes are not a TelemetryBatch (truncated, bad wire type nesting, invalid UTF-8...). */
export class BatchDecodeError extends Error {
  override readonly name = 'BatchDecodeError';
}

/**
 * Decodes one TelemetryBatch. Throws BatchDecodeError on anything that is not a well-formed
 * message (checked strictly first, see wire-format.check.ts: protobufjs alone accepts
 * over-long varints and mismatched wire types); unknown fields are skipped (forward
 * compatibility with newer SDKs).
 */
export function decodeTelemetryBatch(bytes: Uint8Array): TelemetryEvent[] {
  const problem = wireFormatProblem(bytes);
  if (problem) throw new BatchDecodeError(problem);
  try {
    return TelemetryBatch.decode(bytes).events as TelemetryEvent[];
  } catch (error) {
    throw new BatchDecodeError((error as Error).message);
  }
}

export function encodeTelemetryBatch(events: readonly TelemetryEventInput[]): Uint8Array {
  return TelemetryBatch.encode({ events: events as TelemetryEventInput[] }).finish();
}

/** One event's encoded size inside a batch (tag + length prefix included), for batch splitting. */
export function encodedEventSize(event: TelemetryEventInput): number {
  const length = GameTelemetryEvent.encode(event).len;
  return 1 + varintSize(length) + length;
}

function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 0x80);
    size++;
  }
  return size;
}
