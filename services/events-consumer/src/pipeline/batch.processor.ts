import { eventIdFor, type EventRejectionRow } from '@framedeck/clickhouse';
import {
  BatchDecodeError,
  decodeTelemetryBatch,
  parseEnvelopeHeaders,
  TelemetrySource,
  type BatchEnvelope,
  type TelemetryEvent,
} from '@framedeck/proto';
import { validateEvent } from './event.validator.js';
import { deadLetter, ok, type MessageOutcome } from './outcome.js';

/**
 * The consumer's flow, one way: Kafka message → readBatch (decode, or dead-letter) →
 * validateBatch (each event kept or dropped with a reason) → the sink (rows into a block,
 * insert) → the offset is committed. These steps know nothing of RowBinary or ClickHouse;
 * the sink knows nothing of validation.
 */

export type DecodedBatch = { envelope: BatchEnvelope; events: TelemetryEvent[] };

/** The events of one batch that become rows, each with its index in the batch, and the rejection counts of the rest. */
export type ValidatedBatch = {
  envelope: BatchEnvelope;
  accepted: { index: number; event: TelemetryEvent }[];
  rejections: EventRejectionRow[];
};

type KafkaRecord = { value: Buffer | null; headers?: Parameters<typeof parseEnvelopeHeaders>[0] };

/** Step 1, per Kafka message: envelope and payload must both be readable, else dead-letter. */
export function readBatch(message: KafkaRecord): MessageOutcome<DecodedBatch> {
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
 * Step 2, per event: the one place event outcomes are acted on. Valid events are kept with
 * their index in the sender's batch (whether or not their neighbours were dropped, and
 * whether the batch travelled whole or in parts, so an event's id — batch id + index — is the
 * same on every redelivery); dropped ones are counted by reason, one rejection row per reason
 * and message, dated the day the batch was received. A batch of a CI key (envelope.synthetic)
 * is an automated run: each kept event's source becomes automated, whatever it claimed, so a
 * test bot cannot count as a player in analytics.
 */
export function validateBatch(batch: DecodedBatch): ValidatedBatch {
  const { envelope, events } = batch;
  const receivedAtUs = envelope.receivedAtMs * 1000;
  const accepted: ValidatedBatch['accepted'] = [];
  const rejectedByReason = new Map<string, number>();
  events.forEach((event, index) => {
    const outcome = validateEvent(event, receivedAtUs);
    if (outcome.kind !== 'ok') {
      rejectedByReason.set(outcome.reason, (rejectedByReason.get(outcome.reason) ?? 0) + 1);
      return;
    }
    if (envelope.synthetic) outcome.value.source = TelemetrySource.TELEMETRY_SOURCE_AUTOMATED;
    accepted.push({ index: envelope.firstEventIndex + index, event: outcome.value });
  });
  const day = new Date(envelope.receivedAtMs).toISOString().slice(0, 10);
  // Rejection rows replace each other per batch id and reason (a redelivery does not count
  // twice); each part of a split batch gets an id of its own (its first event's id; the
  // batch id itself for part 0 and for whole batches) so parts do not replace each other.
  const rowBatchId = eventIdFor(envelope.batchId, envelope.firstEventIndex);
  const rejections = [...rejectedByReason].map(([reason, count]) => ({
    projectId: envelope.projectId,
    batchId: rowBatchId,
    day,
    reason,
    count,
  }));
  return { envelope, accepted, rejections };
}
