import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { alertMetrics } from './alerts.metrics.js';
import { apiMetrics } from './api.metrics.js';
import { consumerMetrics } from './consumer.metrics.js';
import { ingestMetrics } from './ingest.metrics.js';
import { createMetricsRegistry } from './registry.js';

// The Grafana dashboard (infra/grafana/framedeck.json) against what the services really export:
// a renamed metric, a histogram queried without _bucket or a panel for a metric nobody declares
// fails here instead of showing "No data" in an operator's Grafana.

const dashboard = JSON.parse(
  readFileSync(new URL('../../../infra/grafana/framedeck.json', import.meta.url), 'utf8'),
) as {
  panels: { title: string; targets: { expr: string }[] }[];
};

/** Every service's metric sets on one registry, as each service declares them on its own. */
async function exportedSeriesNames(): Promise<{ all: Set<string>; framedeck: Set<string> }> {
  const registry = createMetricsRegistry('dashboard-test');
  ingestMetrics(registry);
  consumerMetrics(registry, { readLag: async () => [{ topic: 't', partition: 0, lag: 1 }] });
  apiMetrics(registry);
  alertMetrics(registry);
  const text = await registry.metrics();
  const all = new Set<string>();
  const framedeck = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const series = type === 'histogram' ? ['_bucket', '_sum', '_count'].map((s) => name + s) : [name!];
    if (type === 'summary') series.push(`${name}_sum`, `${name}_count`);
    for (const s of series) all.add(s);
    if (name!.startsWith('framedeck_')) framedeck.add(name!);
  }
  return { all, framedeck };
}

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'offset',
  'bool',
]);

/** Metric names in a PromQL expression: identifiers outside label matchers, grouping lists and ranges that are not function calls. */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"[^"]*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, '');
  return [...bare.matchAll(/([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?/g)]
    .filter(([, name, call]) => !call && !PROMQL_WORDS.has(name!))
    .map(([, name]) => name!);
}

describe('Grafana dashboard', () => {
  it('reads metric names out of PromQL (not functions, labels or ranges)', () => {
    expect(
      metricNamesIn('histogram_quantile(0.99, sum by (le, route) (rate(x_bucket{service="api"}[$__rate_interval])))'),
    ).toEqual(['x_bucket']);
    expect(metricNamesIn('sum by (status) (rate(a_total[5m])) / ignoring(status) b')).toEqual(['a_total', 'b']);
  });

  it('queries only series the services export', async () => {
    const { all } = await exportedSeriesNames();
    const queried = dashboard.panels.flatMap((p) =>
      p.targets.flatMap((t) => metricNamesIn(t.expr).map((name) => ({ panel: p.title, name }))),
    );
    expect(queried.length).toBeGreaterThan(10);
    expect(queried.filter((q) => !all.has(q.name))).toEqual([]);
  });

  it('shows every FrameDeck metric the services declare', async () => {
    const { framedeck } = await exportedSeriesNames();
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)).join('\n');
    expect([...framedeck].filter((name) => !exprs.includes(name))).toEqual([]);
    expect(framedeck.size).toBe(12);
  });
});
