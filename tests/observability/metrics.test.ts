import { randomUUID } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, waitHealthy, type RunningService } from '../support/processes.js';
import { connectTestStack } from '../support/stack.js';
import { TEST_ENV } from '../support/config.js';
import { waitFor } from '../support/wait.js';
import {
  batchBody,
  event,
  INGEST_URL,
  newTenant,
  postEvents,
  startConsumer,
  startGateway,
  uniqueProbeName,
  type Tenant,
} from '../ingest/ingest-harness.js';

// /metrics of the real processes after real traffic: the counters move with the right labels,
// the consumer reports lag and inserts, and the endpoint is not reachable from where an
// attacker stands (the public ports, another interface, a missing or wrong token).
const stack = connectTestStack();
const API_PORT = TEST_ENV.FRAMEDECK_API_PORT!;
const API_URL = `http://127.0.0.1:${API_PORT}`;
const metricsUrl = (port: string | undefined) => `http://127.0.0.1:${port}/metrics`;
const GATEWAY_METRICS = metricsUrl(TEST_ENV.FRAMEDECK_INGEST_METRICS_PORT);
const CONSUMER_METRICS = metricsUrl(TEST_ENV.FRAMEDECK_CONSUMER_METRICS_PORT);
const API_METRICS = metricsUrl(TEST_ENV.FRAMEDECK_API_METRICS_PORT);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let gateway: RunningService;
let consumer: RunningService;
let api: RunningService;
let tenant: Tenant;

beforeAll(async () => {
  tenant = await newTenant(stack.pool, 'pro');
  api = startService('api', { FRAMEDECK_LOG_LEVEL: 'debug' });
  [gateway, consumer] = await Promise.all([startGateway(), startConsumer(), waitHealthy(`${API_URL}/healthz`, api)]);
});
afterAll(async () => {
  await Promise.all([gateway?.stop(), consumer?.stop(), api?.stop()]);
  await stack.close();
});

async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

/** The value of one series, matched by name and a subset of its labels; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const [, series, labelText = '', value] of text.matchAll(/^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? (\S+)$/gm)) {
    if (series !== name) continue;
    const have = Object.fromEntries([...labelText.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total += Number(value);
  }
  return total;
}

describe('metrics after real traffic', () => {
  it('counts ingest requests and events by status, and times Kafka produce requests', async () => {
    const before = await scrape(GATEWAY_METRICS);
    const accepted = await postEvents(batchBody([event(), event(), event()]), { 'x-api-key': tenant.keys.ingest! });
    expect(accepted.status).toBe(202);
    const refused = await postEvents(batchBody([event()]), { 'x-api-key': `fd_${randomUUID()}` });
    expect(refused.status).toBe(403);
    const after = await scrape(GATEWAY_METRICS);

    const delta = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(delta('framedeck_ingest_requests_total', { service: 'ingest-gateway', status: '202' })).toBe(1);
    expect(delta('framedeck_ingest_requests_total', { status: '403' })).toBe(1);
    expect(delta('framedeck_ingest_events_total', { status: '202' })).toBe(3);
    expect(sample(after, 'framedeck_kafka_produce_duration_seconds_count')).toBeGreaterThan(0);
    expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(0); // Node's default metrics
  });

  it('shows the consumer inserting rows, counting rejections by reason and its lag per partition', async () => {
    const name = uniqueProbeName();
    const res = await postEvents(batchBody([event({ eventName: name }), event({ eventName: name, sessionId: '' })]), {
      'x-api-key': tenant.keys.ingest!,
    });
    expect(res.status).toBe(202);
    const text = await waitFor(
      async () => {
        const t = await scrape(CONSUMER_METRICS);
        return sample(t, 'framedeck_consumer_events_rejected_total', { reason: 'missing_session_id' }) > 0 &&
          sample(t, 'framedeck_clickhouse_insert_rows_total', { table: 'event_rejections' }) > 0
          ? t
          : false;
      },
      { timeoutMs: 30_000, what: 'the consumer to report the batch' },
    );
    expect(
      sample(text, 'framedeck_clickhouse_insert_rows_total', { service: 'events-consumer', table: 'events' }),
    ).toBeGreaterThan(0);
    expect(sample(text, 'framedeck_clickhouse_insert_duration_seconds_count', { table: 'events' })).toBeGreaterThan(0);
    expect(sample(text, 'framedeck_consumer_messages_total', { outcome: 'ok' })).toBeGreaterThan(0);
    // One lag series per partition of the events topic, read from the brokers.
    const topic = TEST_ENV.FRAMEDECK_KAFKA_EVENTS_TOPIC!;
    const partitions = [...text.matchAll(/^framedeck_consumer_lag_messages\{([^}]*)\} (\d+)$/gm)].filter(([, l]) =>
      l!.includes(`topic="${topic}"`),
    );
    expect(partitions.length).toBeGreaterThan(0);
    expect(partitions.map(([, l]) => /partition="(\d+)"/.exec(l!)?.[1])).toContain('0');
    // Once everything is consumed and committed, the group is 0 behind on every partition
    // (the topic holds every batch the suite ever sent: a lag read from the wrong offset shows it).
    await waitFor(
      async () => {
        const t = await scrape(CONSUMER_METRICS);
        const lags = [...t.matchAll(/^framedeck_consumer_lag_messages\{([^}]*)\} (\d+)$/gm)].filter(([, l]) =>
          l!.includes(`topic="${topic}"`),
        );
        return lags.length > 0 && lags.every(([, , v]) => v === '0');
      },
      { timeoutMs: 30_000, what: 'consumer lag 0 on every partition' },
    );
  });

  it('times API requests by route template and status, never by the URL asked for', async () => {
    const id = tenant.projectId;
    const status = await fetch(`${API_URL}/api/v1/projects/${id}/status`, {
      headers: { 'x-api-key': tenant.keys.full! },
    });
    expect(status.status).toBe(200);
    const requestId = status.headers.get('x-request-id');
    expect(requestId).toMatch(UUID);
    const probe = `nope-${randomUUID()}`;
    expect((await fetch(`${API_URL}/api/v1/${probe}`, { headers: { 'x-api-key': tenant.keys.full! } })).status).toBe(
      404,
    );

    const text = await scrape(API_METRICS);
    const route = '/api/v1/projects/:id/status';
    expect(
      sample(text, 'framedeck_api_request_duration_seconds_count', {
        service: 'api',
        method: 'GET',
        route,
        status: '200',
      }),
    ).toBeGreaterThan(0);
    expect(
      sample(text, 'framedeck_api_request_duration_seconds_count', { route: 'unmatched', status: '404' }),
    ).toBeGreaterThan(0);
    expect(text).not.toContain(id);
    expect(text).not.toContain(probe);

    // The request's log lines carry the id its answer carried.
    await waitFor(() => api.output().includes(`"requestId":"${requestId}"`), {
      what: 'a log line with the request id',
    });
    const line = api
      .output()
      .split('\n')
      .find((l) => l.includes(`"requestId":"${requestId}"`))!;
    expect(JSON.parse(line)).toMatchObject({ service: 'api', route, status: '200', msg: 'request answered' });
  });

  it('counts SQL sandbox queries by outcome', async () => {
    const before = await scrape(API_METRICS);
    const query = (sql: string) =>
      fetch(`${API_URL}/api/v1/query`, {
        method: 'POST',
        headers: { 'x-api-key': tenant.keys.full!, 'content-type': 'application/json' },
        body: JSON.stringify({ project_id: tenant.projectId, sql }),
      });
    expect((await query('SELECT count() AS n FROM events')).status).toBe(200);
    expect((await query('SELECT name FROM system.tables')).status).toBe(400);
    const after = await scrape(API_METRICS);
    const delta = (outcome: string) =>
      sample(after, 'framedeck_sql_queries_total', { outcome }) -
      sample(before, 'framedeck_sql_queries_total', { outcome });
    expect([delta('ok'), delta('rejected'), delta('failed')]).toEqual([1, 1, 0]);
  });

  it('puts a request id on every ingest answer; one sent by a client (an untrusted peer) is replaced', async () => {
    const res = await postEvents(batchBody([event()]), {
      'x-api-key': tenant.keys.ingest!,
      'x-request-id': 'mine-123',
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-request-id')).toMatch(UUID);
    const refused = await fetch(`${INGEST_URL}/v1/events`, { method: 'GET' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe('alert evaluator', () => {
  it('serves its evaluation counter and process metrics on its own listener', async () => {
    const evaluator = startService('alert-evaluator');
    try {
      await waitHealthy(`http://127.0.0.1:${TEST_ENV.FRAMEDECK_EVALUATOR_HEALTH_PORT}/healthz`, evaluator);
      const text = await scrape(metricsUrl(TEST_ENV.FRAMEDECK_EVALUATOR_METRICS_PORT));
      expect(text).toContain('# TYPE framedeck_alert_evaluations_total counter');
      expect(sample(text, 'process_resident_memory_bytes', { service: 'alert-evaluator' })).toBeGreaterThan(0);
    } finally {
      await evaluator.stop();
    }
  });
});

describe('who can read /metrics', () => {
  it('is not served on the public API and ingest ports', async () => {
    // The API origin answers unknown paths outside /api with the dashboard's page (it routes in the browser).
    for (const url of [`${API_URL}/metrics`, `${API_URL}/api/metrics`, `${INGEST_URL}/metrics`]) {
      const res = await fetch(url);
      const body = await res.text();
      expect(body, url).not.toContain('# TYPE');
      expect(body, url).not.toContain('process_resident_memory_bytes');
    }
    expect((await fetch(`${INGEST_URL}/metrics`)).status).toBe(404);
  });

  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  it.skipIf(!external)('listens on loopback only by default: another interface of this host is refused', async () => {
    const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      const socket = net.connect(Number(TEST_ENV.FRAMEDECK_INGEST_METRICS_PORT), external!);
      socket.once('connect', () => {
        socket.destroy();
        resolve(undefined);
      });
      socket.once('error', resolve);
    });
    expect(error?.code).toBe('ECONNREFUSED');
  });

  it('requires the bearer token when one is configured', async () => {
    const token = `scrape-${randomUUID()}`;
    const port = '18489';
    const guarded = startService('ingest-gateway', {
      FRAMEDECK_INGEST_PORT: '18488',
      FRAMEDECK_INGEST_METRICS_PORT: port,
      FRAMEDECK_METRICS_TOKEN: token,
    });
    try {
      await waitHealthy('http://127.0.0.1:18488/healthz', guarded);
      const url = metricsUrl(port);
      for (const authorization of [
        undefined,
        'Bearer wrong-token-of-some-length',
        `Basic ${token}`,
        `Bearer ${token}x`,
      ]) {
        const res = await fetch(url, { headers: authorization ? { authorization } : {} });
        expect(res.status, authorization ?? 'no header').toBe(401);
        expect(await res.text()).not.toContain('framedeck_');
      }
      const ok = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('framedeck_ingest_requests_total');
    } finally {
      await guarded.stop();
    }
  });
});
