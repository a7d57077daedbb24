import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { postJson } from '@framedeck/notifications';
import { createTestMap, retireProjectAlerts } from '../alerts/support/alerts-fixtures.js';
import { uploadMap } from '../analytics/api-helpers.js';
import { pngImage } from '../analytics/image-fixtures.js';
import { postEvents, startGateway } from '../ingest/ingest-harness.js';
import { startIdentityApi, type IdentityApi } from '../oauth/support/identity-harness.js';
import { authorizeUrl, pkce, registerClient } from '../oauth/support/oauth-flow.js';
import type { RunningService } from '../support/processes.js';
import { OAUTH_REGISTRATIONS_PER_IP } from '../../services/api/src/oauth/oauth.constants.js';

// Attacker-side tests for the OWASP API Security Top 10 items that had no test elsewhere
// (docs/owasp-api-top10.md maps every item of every endpoint family to its tests).
let api: IdentityApi;
let gateway: RunningService;
let a: BootstrapResult;
let b: BootstrapResult;
const GATEWAY_PORT = '18098';

beforeAll(async () => {
  api = await startIdentityApi();
  gateway = await startGateway({ FRAMEDECK_INGEST_PORT: GATEWAY_PORT });
  [a, b] = await Promise.all([bootstrapTenant(api.pool, { plan: 'pro' }), bootstrapTenant(api.pool, { plan: 'pro' })]);
});
afterAll(async () => {
  await Promise.allSettled([retireProjectAlerts(api.pool, a.projectId), retireProjectAlerts(api.pool, b.projectId)]);
  await gateway?.stop();
  await api?.close();
});

async function call(
  path: string,
  init: { method?: string; key?: string; json?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${api.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.key ? { 'x-api-key': init.key } : {}),
      ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await res.text();
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

describe('API1 broken object level authorization', () => {
  it('a map image’s content hash is not a capability: another tenant gets 404 through either project', async () => {
    const image = pngImage(7, 3); // a size no other test uses: its hash is this upload's
    const upload = await uploadMap(api, {
      key: a.keys.full!,
      projectId: a.projectId,
      fields: { name: 'Secret', mapId: 'secret', worldMinX: 0, worldMinY: 0, worldMaxX: 10, worldMaxY: 10 },
      file: { bytes: image },
    });
    expect(upload.status, upload.text).toBe(201);
    const sha = /map-images\/([0-9a-f]{64})/.exec(upload.body.data.imageUrl as string)![1]!;
    expect((await call(`/v1/projects/${a.projectId}/map-images/${sha}`, { key: a.keys.read! })).status).toBe(200);
    // Tenant B: its own project path with A's hash, and A's path with B's key.
    const viaOwn = await call(`/v1/projects/${b.projectId}/map-images/${sha}`, { key: b.keys.full! });
    const viaTheirs = await call(`/v1/projects/${a.projectId}/map-images/${sha}`, { key: b.keys.full! });
    expect([viaOwn.status, viaTheirs.status]).toEqual([404, 404]);
    expect(viaOwn.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});

describe('API3 broken object property level authorization (mass assignment)', () => {
  it('alert rule bodies with server-owned or foreign properties are refused, and nothing changes', async () => {
    const map = await createTestMap(api.pool, a.projectId, 'Arena');
    const rules = `/v1/projects/${a.projectId}/alerts`;
    const created = await call(rules, {
      method: 'POST',
      key: a.keys.readWrite!,
      json: { name: 'fps', mapId: map.id, metric: 'fps' },
    });
    expect(created.status, created.text).toBe(201);
    const rule = created.body!.data as Record<string, unknown>;
    for (const extra of [
      { projectId: b.projectId },
      { id: '00000000-0000-4000-8000-000000000000' },
      { latestStatus: 'resolved' },
      { createdAt: '2000-01-01T00:00:00Z' },
    ]) {
      const create = await call(rules, {
        method: 'POST',
        key: a.keys.readWrite!,
        json: { name: 'x', mapId: map.id, ...extra },
      });
      expect(create.status, `POST ${JSON.stringify(extra)}: ${create.text}`).toBe(400);
      const patch = await call(`${rules}/${rule.id}`, { method: 'PATCH', key: a.keys.readWrite!, json: extra });
      expect(patch.status, `PATCH ${JSON.stringify(extra)}: ${patch.text}`).toBe(400);
    }
    const after = await call(`${rules}/${rule.id}`, { key: a.keys.read! });
    expect(after.body!.data).toEqual(rule);
    expect((await call(`/v1/projects/${b.projectId}/alerts`, { key: b.keys.read! })).body!.data).toEqual([]);
  });

  it('a content entry cannot be written into another project through a body property', async () => {
    const res = await call('/v1/content', {
      method: 'POST',
      key: a.keys.readWrite!,
      headers: { 'x-project-id': a.projectId },
      json: { type: 'map', key: 'arena', displayName: 'Arena', projectId: b.projectId },
    });
    expect(res.status, res.text).toBe(400);
    const theirs = await call('/v1/content', { key: b.keys.read!, headers: { 'x-project-id': b.projectId } });
    expect(theirs.body!.data).toEqual([]);
  });
});

describe('API6 unrestricted access to sensitive business flows', () => {
  it(`open OAuth client registration is limited to ${OAUTH_REGISTRATIONS_PER_IP} per client address, then 429 with Retry-After`, async () => {
    const fresh = await startIdentityApi(); // its own, empty registration window
    try {
      const statuses: number[] = [];
      for (let i = 0; i <= OAUTH_REGISTRATIONS_PER_IP; i++) statuses.push((await registerClient(fresh.origin)).status);
      expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      const again = await fetch(`${fresh.origin}/api/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'flood', redirect_uris: ['http://127.0.0.1:1/cb'] }),
      });
      expect(again.status).toBe(429);
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });
});

describe('API7 server-side request forgery through OAuth client metadata', () => {
  let bait: Server;
  let hits: string[];
  let baitUrl: string;
  beforeAll(async () => {
    hits = [];
    bait = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.end('{}');
    });
    await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
    baitUrl = `http://127.0.0.1:${(bait.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => bait.close(() => resolve())));

  it('registration and authorization never fetch a URL the client supplied', async () => {
    const registration = await registerClient(api.origin, {
      jwks_uri: `${baitUrl}/jwks`,
      sector_identifier_uri: `${baitUrl}/sector`,
      logo_uri: `${baitUrl}/logo.png`,
      client_uri: `${baitUrl}/home`,
      policy_uri: `${baitUrl}/policy`,
      tos_uri: `${baitUrl}/tos`,
      request_uris: [`${baitUrl}/request`],
    });
    // Either refused, or registered without the server ever calling those URLs.
    const clientId = registration.status === 201 ? registration.clientId : (await registerClient(api.origin)).clientId;
    const { challenge } = pkce();
    const url = new URL(authorizeUrl(api.origin, { clientId, challenge }));
    url.searchParams.set('request_uri', `${baitUrl}/request`);
    const authorize = await fetch(url, { redirect: 'manual' });
    expect(authorize.status).toBeLessThan(500);
    await new Promise((r) => setTimeout(r, 500));
    expect(hits).toEqual([]);
  });
});

describe('API8 security misconfiguration', () => {
  it('API answers name no framework and grant no cross-origin reads to a foreign site', async () => {
    const evil = { origin: 'https://evil.example' };
    for (const res of [
      await call('/v1/projects', { key: a.keys.read!, headers: evil }),
      await call('/v1/projects', { headers: evil }), // 401
      await call('/v1/projects', {
        method: 'OPTIONS',
        headers: { ...evil, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
      }),
    ]) {
      expect(res.headers.get('x-powered-by')).toBeNull();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('TRACE is not echoed, and no answer repeats the credential it was sent', async () => {
    const secret = a.keys.full!;
    // fetch refuses TRACE; node:http sends it.
    const trace = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        `${api.baseUrl}/v1/projects`,
        { method: 'TRACE', headers: { 'x-api-key': secret } },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d)).on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject).end();
    });
    expect(trace.status).toBeGreaterThanOrEqual(400);
    expect(trace.text).not.toContain(secret);
    const forbidden = await call(`/v1/projects/${b.projectId}/status`, { key: secret });
    expect(forbidden.status).toBe(404);
    expect(forbidden.text).not.toContain(secret);
    const ingest = await postEvents(
      Buffer.from('x'),
      { 'x-api-key': a.keys.read! },
      `http://127.0.0.1:${GATEWAY_PORT}`,
    );
    expect(ingest.status).toBe(403);
    expect(ingest.body).not.toContain(a.keys.read!);
  });
});

describe('API4 slow clients (slowloris)', () => {
  it('a client that drips its request headers is disconnected once the headers timeout passes', async () => {
    const slowGateway = await startGateway({
      FRAMEDECK_INGEST_PORT: '18097',
      FRAMEDECK_HTTP_HEADERS_TIMEOUT_MS: '1000',
    });
    try {
      const started = Date.now();
      const closedAfter = await new Promise<number>((resolve, reject) => {
        const socket = connect(18097, '127.0.0.1', () => socket.write('POST /v1/events HTTP/1.1\r\nHost: x\r\n'));
        // One more header line every 300 ms, never the blank line that ends the headers.
        const drip = setInterval(() => socket.writable && socket.write(`X-Drip-${Date.now()}: 1\r\n`), 300);
        socket.on('close', () => {
          clearInterval(drip);
          resolve(Date.now() - started);
        });
        socket.on('error', () => undefined);
        socket.resume(); // read the server's answer, or its closing the connection is never seen
        setTimeout(() => reject(new Error('still connected after 8 s')), 8_000).unref();
      });
      expect(closedAfter).toBeGreaterThanOrEqual(900);
      expect(closedAfter).toBeLessThan(4_000);
    } finally {
      await slowGateway.stop();
    }
  });
});

describe('API9 improper inventory management', () => {
  it.each([
    '/api/v0/projects',
    '/api/v2/projects',
    '/api/projects',
    '/api/v1/admin',
    '/api/v1/debug',
    '/api/v1/internal/tenants',
    '/api/v1/tenants',
    '/api/v1/users',
    '/api/metrics',
    '/api/graphql',
    '/api/v1/projects/../projects',
  ])('%s is not served (no old, shadow or debug API)', async (path) => {
    const res = await call(path, { key: a.keys.full! });
    expect(res.status, res.text).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it.each(['/v2/events', '/v0/events', '/events', '/metrics', '/debug/pprof', '/v1/events/../admin'])(
    'the gateway serves nothing at %s',
    async (path) => {
      const res = await fetch(`http://127.0.0.1:${GATEWAY_PORT}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': a.keys.ingest! },
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'Not found.' });
    },
  );
});

describe('API10 unsafe consumption of APIs (notification receivers are third-party servers)', () => {
  // NOTE: loopback receivers need allowLocalTargets; the target policy itself (https only,
  // public addresses, DNS rebinding) is tested in libs/notifications target-policy.test.ts.
  const policy = { allowLocalTargets: true };
  const servers: Server[] = [];
  afterAll(() => {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  });
  async function receiver(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('a redirect from a receiver is not followed (it could point past the SSRF policy)', async () => {
    const internalHits: string[] = [];
    const internal = await receiver((req, res) => {
      internalHits.push(req.url ?? '');
      res.end();
    });
    const redirecting = await receiver((_req, res) => {
      res.writeHead(307, { location: `${internal}/admin` }).end();
    });
    const result = await postJson(`${redirecting}/hook`, { 'content-type': 'application/json' }, '{}', {
      policy,
      timeoutMs: 2_000,
    });
    expect(result.statusCode).toBe(307);
    expect(internalHits).toEqual([]);
  });

  it('a receiver that drips its answer forever cannot hold a delivery past its timeout', async () => {
    const dripping = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => res.write('.'), 200);
      res.on('close', () => clearInterval(drip));
    });
    const started = Date.now();
    const outcome = await postJson(`${dripping}/hook`, {}, '{}', { policy, timeoutMs: 1_000 }).then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    // The lease check in the evaluator's config assumes timeoutMs bounds a whole attempt.
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(outcome).toMatch(/within 1000 ms/);
  }, 15_000);
});
