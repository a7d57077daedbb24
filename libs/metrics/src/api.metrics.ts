import { Counter, Histogram, type Registry } from 'prom-client';
import { REQUEST_SECONDS } from './buckets.js';

/** The outcomes of POST /v1/query, as the route tells them apart. */
export const SQL_QUERY_OUTCOMES = ['ok', 'rejected', 'limited', 'unavailable', 'cancelled', 'failed'] as const;
export type SqlQueryOutcome = (typeof SQL_QUERY_OUTCOMES)[number];

/**
 * The API's metrics. `route` is the route template (`/api/v1/projects/:id`), never the URL
 * asked for: ids and unknown paths would make one series per request. Requests that match no
 * route share `unmatched`.
 */
export function apiMetrics(registry: Registry) {
  return {
    requestSeconds: new Histogram({
      name: 'framedeck_api_request_duration_seconds',
      help: 'API requests, from arrival to the end of the answer, by method, route template and status.',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: REQUEST_SECONDS,
      registers: [registry],
    }),
    sqlQueries: new Counter({
      name: 'framedeck_sql_queries_total',
      help: 'SQL sandbox queries (POST /v1/query), by outcome.',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
  };
}
export type ApiMetrics = ReturnType<typeof apiMetrics>;
