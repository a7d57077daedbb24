import type { Consumer, EachBatchPayload } from '@framedeck/kafka';
import type { Logger } from '@framedeck/logging';
import type { ConsumerMetrics } from '@framedeck/metrics';
import { readBatch, validateBatch } from '../pipeline/batch.processor.js';
import type { EventsSink } from '../sink/events.sink.js';
import type { DeadLetterPublisher } from './dead-letter.publisher.js';

export type EventsConsumerDeps = {
  consumer: Consumer;
  sink: EventsSink;
  deadLetters: DeadLetterPublisher;
  topic: string;
  /** Partitions processed at once; their rows share the sink's blocks. */
  concurrency: number;
  logger: Logger;
  metrics: Pick<ConsumerMetrics, 'messages' | 'eventsRejected'>;
};

/**
 * The consumer loop: acts on each message's outcome (rows to the sink, or the dead-letter
 * topic), then resolves offsets strictly in order and only for messages whose work is durable.
 * NOTE: eachBatchAutoResolve is off; an offset that is not resolved is not committed, and a
 * batch that fails half-way is redelivered from its first unresolved message. Redelivered
 * events keep their ids (batch id + index) and collapse in the ReplacingMergeTree.
 */
export async function runEventsConsumer(deps: EventsConsumerDeps): Promise<void> {
  const { consumer, topic } = deps;
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachBatchAutoResolve: false,
    autoCommit: true, // commits resolved offsets only, after each batch
    partitionsConsumedConcurrently: deps.concurrency,
    eachBatch: (payload) => processBatch(deps, payload),
  });
}

async function processBatch(deps: EventsConsumerDeps, payload: EachBatchPayload): Promise<void> {
  const { batch, resolveOffset, heartbeat, isStale } = payload;
  // Inserting may take a while (a block fills, ClickHouse is slow or restarting): keep the
  // group membership alive meanwhile. KafkaJS throttles heartbeats to its own interval.
  const beat = setInterval(() => heartbeat().catch(() => undefined), 1_000);
  try {
    // Every message's work starts now; results are awaited in offset order below.
    const settled = batch.messages.map((message) => {
      const outcome = readBatch(message);
      let work: Promise<void>;
      switch (outcome.kind) {
        case 'ok': {
          const validated = validateBatch(outcome.value);
          deps.metrics.messages.inc({ outcome: 'ok' });
          for (const r of validated.rejections) deps.metrics.eventsRejected.inc({ reason: r.reason }, r.count);
          work = deps.sink.add(validated);
          break;
        }
        case 'dead-letter':
          deps.metrics.messages.inc({ outcome: 'dead_letter' });
          deps.logger.warn(
            { partition: batch.partition, offset: message.offset, reason: outcome.reason },
            'dead-letter',
          );
          work = deps.deadLetters.publish(
            { ...message, topic: batch.topic, partition: batch.partition },
            outcome.reason,
          );
          break;
      }
      return work.then(
        () => undefined,
        (error: unknown) => error ?? new Error('failed'),
      );
    });
    for (let i = 0; i < batch.messages.length; i++) {
      const error = await settled[i];
      if (error) throw error;
      if (isStale()) return; // partition revoked meanwhile: its new owner redelivers the rest
      resolveOffset(batch.messages[i]!.offset);
    }
  } finally {
    clearInterval(beat);
  }
}
