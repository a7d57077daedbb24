import type { Producer } from '@framedeck/kafka';
import type { IngestMetrics } from '@framedeck/metrics';

/**
 * Times every Kafka produce request of `producer` from KafkaJS's own network instrumentation:
 * the broker round trip of one request (acks = all), whatever batching the publisher does above it.
 */
export function observeProduceLatency(producer: Producer, metrics: Pick<IngestMetrics, 'produceSeconds'>): void {
  producer.on(producer.events.REQUEST, ({ payload }) => {
    if (payload.apiName === 'Produce') metrics.produceSeconds.observe(payload.duration / 1000);
  });
}
