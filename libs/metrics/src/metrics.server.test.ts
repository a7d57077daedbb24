import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestMetrics } from './ingest.metrics.js';
import { startMetricsListener } from './metrics.server.js';
import { Registry } from './registry.js';

const servers: http.Server[] = [];
afterEach(() => Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve)))));

async function listener(token?: string, logger = { error: () => undefined }) {
  const registry = new Registry();
  ingestMetrics(registry).requests.inc({ status: '202' });
  const server = await startMetricsListener({ host: '127.0.0.1', port: 0, token, registry, logger });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('metrics listener', () => {
  it('serves GET /metrics and nothing else', async () => {
    const url = await listener();
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('framedeck_ingest_requests_total{status="202"} 1');
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('with a token, answers only the exact bearer token', async () => {
    const token = 'a-scrape-token-of-32-characters!';
    const url = await listener(token);
    for (const authorization of [
      undefined,
      `Bearer ${token.slice(0, -1)}`,
      `Bearer ${token} x`,
      `Basic ${token}`,
      token,
    ]) {
      const res = await fetch(`${url}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
      expect(res.status, String(authorization)).toBe(401);
      expect(await res.text()).not.toContain('framedeck_');
    }
    expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('reports a port it cannot bind and still resolves, so the service runs on', async () => {
    const url = await listener();
    const errors: string[] = [];
    const port = Number(new URL(url).port);
    const second = await startMetricsListener({
      host: '127.0.0.1',
      port,
      registry: new Registry(),
      logger: { error: (_obj: unknown, message: string) => void errors.push(message) },
    });
    expect(second.listening).toBe(false);
    expect(errors).toHaveLength(1);
  });
});
