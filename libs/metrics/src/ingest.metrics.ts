import { Counter, Histogram, type Registry } from 'prom-client';
import { PRODUCE_SECONDS } from './buckets.js';

/**
 * The ingest gateway's metrics. `status` is the HTTP status answered (a handful of values);
 * events are counted by the status of the request that carried them, so accepted events and
 * events refused whole (budget spent, Kafka unavailable) can be told apart.
 */
export function ingestMetrics(registry: Registry) {
  return {
    requests: new Counter({
      name: 'framedeck_ingest_requests_total',
      help: 'POST /v1/events requests, by HTTP status answered.',
      labelNames: ['status'] as const,
      registers: [registry],
    }),
    events: new Counter({
      name: 'framedeck_ingest_events_total',
      help: 'Events in decoded batches, by the HTTP status of the request that carried them.',
      labelNames: ['status'] as const,
      registers: [registry],
    }),
    produceSeconds: new Histogram({
      name: 'framedeck_kafka_produce_duration_seconds',
      help: 'Kafka produce requests (acks = all), from send to the broker acknowledgement.',
      buckets: PRODUCE_SECONDS,
      registers: [registry],
    }),
  };
}
export type IngestMetrics = ReturnType<typeof ingestMetrics>;
