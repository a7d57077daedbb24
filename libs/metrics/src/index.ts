export { createMetricsRegistry, Registry } from './registry.js';
export { startMetricsListener, type MetricsListenerOptions } from './metrics.server.js';
export { ingestMetrics, type IngestMetrics } from './ingest.metrics.js';
export { consumerMetrics, type ConsumerMetrics, type PartitionLag } from './consumer.metrics.js';
export { apiMetrics, SQL_QUERY_OUTCOMES, type ApiMetrics, type SqlQueryOutcome } from './api.metrics.js';
export { alertMetrics, type AlertMetrics } from './alerts.metrics.js';
