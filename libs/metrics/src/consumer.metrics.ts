import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { INSERT_SECONDS } from './buckets.js';

/** Messages not yet committed by the consumer group, per partition of the events topic. */
export type PartitionLag = { topic: string; partition: number; lag: number };

/**
 * The events consumer's metrics. Rejection reasons are validate-event's fixed snake_case set
 * (never free text); dead-letter reasons carry error text, so dead letters are counted without
 * one. `table` is events or event_rejections.
 */
export function consumerMetrics(registry: Registry, options: { readLag: () => Promise<PartitionLag[]> }) {
  return {
    messages: new Counter({
      name: 'framedeck_consumer_messages_total',
      help: 'Kafka messages (batches) read, by outcome: ok or dead_letter.',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    eventsRejected: new Counter({
      name: 'framedeck_consumer_events_rejected_total',
      help: 'Events dropped by validation, by reason.',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    insertRows: new Counter({
      name: 'framedeck_clickhouse_insert_rows_total',
      help: 'Rows inserted into ClickHouse, by table.',
      labelNames: ['table'] as const,
      registers: [registry],
    }),
    insertSeconds: new Histogram({
      name: 'framedeck_clickhouse_insert_duration_seconds',
      help: 'ClickHouse inserts, from the first attempt to success (retries included), by table.',
      labelNames: ['table'] as const,
      buckets: INSERT_SECONDS,
      registers: [registry],
    }),
    insertRetries: new Counter({
      name: 'framedeck_clickhouse_insert_retries_total',
      help: 'Failed ClickHouse insert attempts that were retried, by table.',
      labelNames: ['table'] as const,
      registers: [registry],
    }),
    lag: new Gauge({
      name: 'framedeck_consumer_lag_messages',
      help: "Messages behind: the partition's high watermark minus the group's committed offset, read at scrape time.",
      labelNames: ['topic', 'partition'] as const,
      registers: [registry],
      // NOTE: read from Kafka at scrape time (not from the consumer's own fetches), so a consumer
      // that is stuck or gone still shows its lag growing; a failed read leaves the gauge empty
      // rather than showing stale figures.
      async collect() {
        this.reset();
        const partitions = await options.readLag().catch(() => []);
        for (const p of partitions) this.set({ topic: p.topic, partition: String(p.partition) }, p.lag);
      },
    }),
  };
}
export type ConsumerMetrics = ReturnType<typeof consumerMetrics>;
