import { beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../ingest/ingest-harness.js';
import { expectStoredExactly, steadyLoad } from './support/cluster-load.js';
import { CLUSTER_API } from './support/cluster-env.js';
import { useClusterSuite } from './support/cluster-suite.js';

// A rolling restart, as a deployment does it: one instance at a time stopped gracefully (SIGTERM)
// and started again, gateways, then consumers, then APIs, while an ingest client and an API
// client keep going. Clients may see retryable 503s (an instance draining), nothing else; every
// accepted event is stored once.

const suite = useClusterSuite(1);
let tenant: Tenant;
beforeAll(() => void (tenant = suite.tenants[0]!));

const ROLLING_ORDER = [
  'ingest-gateway-1',
  'ingest-gateway-2',
  'events-consumer-1',
  'events-consumer-2',
  'api-1',
  'api-2',
] as const;

/**
 * An API client reading insights in a loop until `stop()`: every answer's status (0: the
 * connection failed), a 503 retried after a pause as clients do.
 */
function apiLoad(): { stop: () => Promise<number[]> } {
  const statuses: number[] = [];
  let running = true;
  const url = `${CLUSTER_API}/api/v1/projects/${tenant.projectId}/insights?metric=count&groupBy=event_name&days=7`;
  const loop = (async () => {
    while (running) {
      const res = await fetch(url, { headers: { 'x-api-key': tenant.keys.read ?? tenant.keys.full! } }).catch(
        () => undefined,
      );
      statuses.push(res?.status ?? 0);
      await res?.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, res?.status === 503 ? 500 : 100));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return statuses;
    },
  };
}

const tally = (statuses: readonly number[]) =>
  statuses.reduce<Record<string, number>>((counts, s) => ({ ...counts, [s]: (counts[s] ?? 0) + 1 }), {});

describe('cluster: rolling restart', () => {
  it('restarts gateways, consumers and APIs one at a time: clients see only 2xx and retried 503s, no event lost or doubled', async () => {
    const reader = apiLoad();
    const restarted: string[] = [];
    const { accepted, refusals } = await steadyLoad(tenant, 10_000, 'rolling_restart', async () => {
      for (const label of ROLLING_ORDER) {
        await suite.services.control('restart', label);
        restarted.push(label);
      }
    });
    const apiStatuses = await reader.stop();
    // The figures docs/deployment.md quotes.
    console.log(
      `rolling restart: ${accepted} events accepted, ingest refusals ${JSON.stringify(tally(refusals))}, ` +
        `API answers ${JSON.stringify(tally(apiStatuses))}`,
    );
    expect(restarted).toEqual([...ROLLING_ORDER]);
    expect(refusals.filter((status) => status !== 503)).toEqual([]);
    expect(apiStatuses.filter((status) => status !== 503 && (status < 200 || status > 299))).toEqual([]);
    expect(apiStatuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    await expectStoredExactly(suite.clickhouse, tenant, 'rolling_restart', accepted);
  }, 600_000);
});
