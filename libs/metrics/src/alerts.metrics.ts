import { Counter, type Registry } from 'prom-client';

/** The alert evaluator's metrics: one count per rule evaluated, by what came of it. */
export function alertMetrics(registry: Registry) {
  return {
    evaluations: new Counter({
      name: 'framedeck_alert_evaluations_total',
      help: 'Alert rule evaluations, by outcome: recorded, notified, lease_lost, disabled or failed.',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
  };
}
export type AlertMetrics = ReturnType<typeof alertMetrics>;
