import { collectDefaultMetrics, Registry } from 'prom-client';

export { Registry } from 'prom-client';

/**
 * A service's registry: Node's process metrics (CPU, memory, event-loop lag, GC, handles) plus
 * whatever metric sets the service declares on it. `service` labels every series, so one
 * Prometheus job can scrape every FrameDeck process and still tell them apart.
 */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}
