import type { KafkaConfig } from '@framedeck/config';
import { largestValueBytes, recordBytes } from '@framedeck/kafka';
import { envelopeHeaders, splitTelemetryBatch, type BatchEnvelope } from '@framedeck/proto';

/** What the events handler hands over: the inflated batch and what the request told us. */
export type AcceptedBatch = { value: Buffer; envelope: Omit<BatchEnvelope, 'eventCount' | 'firstEventIndex'> };

/** One Kafka record: a TelemetryBatch (the whole batch, or a part) with its envelope headers. */
export type BatchMessage = { key: string; value: Buffer; headers: Record<string, string> };

export type MessageLimits = Pick<KafkaConfig['producer'], 'maxRecordBatchBytes' | 'compression'>;

/**
 * The Kafka records of an accepted batch: one record when it fits the record-batch cap (with
 * room for the dead-letter headers), else parts cut at event boundaries, each numbered from its
 * first event's index so event ids do not depend on the cut. Throws OversizedEventError when
 * one event alone cannot fit (the handler answers 413).
 *
 * Key: the batch id. It spreads batches evenly over partitions (a big project is not pinned to
 * one), sends a retried batch and every part of a split one to the same partition in order,
 * and needs nothing of the partition for dedup: event ids (batch id + index) collapse in
 * ClickHouse wherever the copies came from.
 */
export function batchMessages(batch: AcceptedBatch, limits: MessageLimits): BatchMessage[] {
  const key = batch.envelope.batchId;
  const headersFor = (eventCount: number, firstEventIndex: number) =>
    envelopeHeaders({ ...batch.envelope, eventCount, firstEventIndex });
  // The widest headers any part can have: counts at their widest decimal length.
  const widest = headersFor(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const maxValueBytes = largestValueBytes(
    limits.maxRecordBatchBytes,
    limits.compression,
    recordBytes({ key, value: null, headers: widest }),
  );
  return splitTelemetryBatch(batch.value, maxValueBytes).map((part) => ({
    key,
    value: part.bytes,
    headers: headersFor(part.eventCount, part.firstEventIndex),
  }));
}
