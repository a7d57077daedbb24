import { uuidToRowBinary, type EventsRowBinaryBlock } from '@framedeck/clickhouse';
import {
  BatchDecodeError,
  decodeTelemetryBatch,
  parseEnvelopeHeaders,
  type BatchEnvelope,
  type TelemetryEvent,
} from '@framedeck/proto';
import { validateEvent } from './event.validator.js';
import { deadLetter, ok, type Outcome } from './outcome.js';

export type DecodedBatch = { envelope: BatchEnvelope; events: TelemetryEvent[] };

type KafkaRecord = { value: Buffer | null; headers?: Parameters<typeof parseEnvelopeHeaders>[0] };

/** Step 1, per Kafka message: envelope and payload must both be readable, else dead-letter. */
export function readBatch(message: KafkaRecord): Outcome<DecodedBatch> {
  const envelope = parseEnvelopeHeaders(message.headers);
  if (typeof envelope === 'string') return deadLetter(`malformed envelope: ${envelope}`);
  if (!message.value) return deadLetter('message has no value');
  try {
    return ok({ envelope, events: decodeTelemetryBatch(message.value) });
  } catch (error) {
    if (error instanceof BatchDecodeError) return deadLetter(`undecodable TelemetryBatch: ${error.message}`);
    throw error;
  }
}

/**
 * Step 2, per event: valid events become rows of `block`; dropped ones are counted by reason.
 * An event keeps its index in the batch whether or not its neighbours were dropped, so its id
 * (batch id + index) is the same on every redelivery.
 */
export function appendValidEvents(batch: DecodedBatch, block: EventsRowBinaryBlock): Map<string, number> {
  const { envelope, events } = batch;
  const receivedAtUs = envelope.receivedAtMs * 1000;
  const context = {
    projectId: uuidToRowBinary(envelope.projectId),
    batchId: uuidToRowBinary(envelope.batchId),
    sdkVersion: envelope.sdkVersion,
    receivedAtSeconds: Math.floor(envelope.receivedAtMs / 1000),
  };
  const rejected = new Map<string, number>();
  for (let index = 0; index < events.length; index++) {
    const outcome = validateEvent(events[index]!, receivedAtUs);
    if (outcome.kind === 'ok') block.append(context, outcome.value, index);
    else rejected.set(outcome.reason, (rejected.get(outcome.reason) ?? 0) + 1);
  }
  return rejected;
}
