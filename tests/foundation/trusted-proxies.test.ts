import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchBody, event, postEvents, startGateway } from '../ingest/ingest-harness.js';
import { startService, waitHealthy, type RunningService } from '../support/processes.js';

// FRAMEDECK_TRUSTED_PROXIES from the attacker's side: per-IP limits follow X-Forwarded-For only
// when the TCP peer is a trusted proxy. Here every request comes from 127.0.0.1; one instance of
// each service trusts nobody (the default), the other trusts 127.0.0.1 as its load balancer.
// Each instance has its own Redis prefix, so their counters start empty and stay apart.
const INVALID_KEYS_PER_WINDOW = 3;
const ANONYMOUS_PER_HOUR = 3;

type Instance = { url: string; service: RunningService };
const gateways: Record<'untrusted' | 'trusted', Instance> = {} as never;
const apis: Record<'untrusted' | 'trusted', Instance> = {} as never;

const proxySetting = (kind: 'untrusted' | 'trusted'): Record<string, string> =>
  kind === 'trusted' ? { FRAMEDECK_TRUSTED_PROXIES: '127.0.0.1' } : {};
const ports = { gateway: { untrusted: '18491', trusted: '18492' }, api: { untrusted: '18493', trusted: '18494' } };

async function startGatewayInstance(kind: 'untrusted' | 'trusted'): Promise<void> {
  const port = ports.gateway[kind];
  const service = await startGateway({
    ...proxySetting(kind),
    FRAMEDECK_INGEST_PORT: port,
    FRAMEDECK_INGEST_METRICS_PORT: String(Number(port) + 10),
    FRAMEDECK_REDIS_PREFIX: `fdtest-proxy-${randomUUID()}:`,
    FRAMEDECK_INGEST_INVALID_KEYS_PER_WINDOW: String(INVALID_KEYS_PER_WINDOW),
  });
  gateways[kind] = { url: `http://127.0.0.1:${port}`, service };
}

async function startApiInstance(kind: 'untrusted' | 'trusted'): Promise<void> {
  const port = ports.api[kind];
  const service = startService('api', {
    ...proxySetting(kind),
    FRAMEDECK_API_PORT: port,
    FRAMEDECK_APP_ORIGIN: `http://127.0.0.1:${port}`,
    FRAMEDECK_API_METRICS_PORT: String(Number(port) + 10),
    FRAMEDECK_REDIS_PREFIX: `fdtest-proxy-${randomUUID()}:`,
    FRAMEDECK_API_ANONYMOUS_REQUESTS_PER_HOUR: String(ANONYMOUS_PER_HOUR),
  });
  await waitHealthy(`http://127.0.0.1:${port}/healthz`, service);
  apis[kind] = { url: `http://127.0.0.1:${port}`, service };
}

beforeAll(async () => {
  await Promise.all([
    startGatewayInstance('untrusted'),
    startGatewayInstance('trusted'),
    startApiInstance('untrusted'),
    startApiInstance('trusted'),
  ]);
});
afterAll(async () => {
  await Promise.all([...Object.values(gateways), ...Object.values(apis)].map((i) => i.service.stop()));
});

/** An ingest request with an unknown key, claiming to come from `forwardedFor`. */
const invalidKey = (gateway: Instance, forwardedFor: string) =>
  postEvents(batchBody([event()]), { 'x-api-key': `fd_${randomUUID()}`, 'x-forwarded-for': forwardedFor }, gateway.url);

/** An anonymous API request claiming to come from `forwardedFor`. */
const anonymous = (api: Instance, forwardedFor: string) =>
  fetch(`${api.url}/api/v1/whoami`, { headers: { 'x-forwarded-for': forwardedFor } });

describe('gateway invalid-key limiter', () => {
  it('ignores X-Forwarded-For from an untrusted peer: a new forged address per request still gets blocked', async () => {
    const gateway = gateways.untrusted;
    for (let i = 0; i < INVALID_KEYS_PER_WINDOW; i++) {
      expect((await invalidKey(gateway, `198.51.100.${i + 1}`)).status).toBe(403);
    }
    expect((await invalidKey(gateway, '198.51.100.200')).status).toBe(429);
  });

  it('counts the address a trusted proxy reports, and a prefix the client forged does not move it', async () => {
    const gateway = gateways.trusted;
    for (let i = 0; i < INVALID_KEYS_PER_WINDOW; i++) {
      expect((await invalidKey(gateway, '203.0.113.10')).status).toBe(403);
    }
    expect((await invalidKey(gateway, '203.0.113.10')).status).toBe(429);
    // The client wrote "192.0.2.99" itself; the proxy appended the address it saw.
    expect((await invalidKey(gateway, '192.0.2.99, 203.0.113.10')).status).toBe(429);
    // Another client behind the same proxy is not blocked.
    expect((await invalidKey(gateway, '203.0.113.11')).status).toBe(403);
  });
});

describe('API anonymous limit', () => {
  it('ignores X-Forwarded-For from an untrusted peer', async () => {
    const api = apis.untrusted;
    for (let i = 0; i < ANONYMOUS_PER_HOUR; i++) expect((await anonymous(api, `198.51.100.${i + 1}`)).status).toBe(401);
    expect((await anonymous(api, '198.51.100.200')).status).toBe(429);
  });

  it('counts per client address behind a trusted proxy', async () => {
    const api = apis.trusted;
    for (let i = 0; i < ANONYMOUS_PER_HOUR; i++) expect((await anonymous(api, '203.0.113.20')).status).toBe(401);
    expect((await anonymous(api, '192.0.2.99, 203.0.113.20')).status).toBe(429);
    expect((await anonymous(api, '203.0.113.21')).status).toBe(401);
  });
});
