import { gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { createApiKey } from '@framedeck/accounts';
import { deactivateKey, listKeysOfProject } from '@framedeck/postgres';
import { createKafka } from '@framedeck/kafka';
import { kafkaSection } from '@framedeck/config';
import { createLogger } from '@framedeck/logging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../support/processes.js';
import { connectTestStack } from '../support/stack.js';
import { TEST_ENV } from '../support/config.js';
import { waitFor } from '../support/wait.js';
import {
  batchBody,
  event,
  newTenant,
  postEvents as sendEvents,
  rawRequest,
  startGateway,
  statusOf as rawStatusOf,
  type Tenant,
} from './ingest-harness.js';
import { ingestOpenApiPaths } from '../../services/api/src/http/ingest.openapi.js';

// Every status of POST /v1/events, each provoked from the sender's side against the real
// gateway (Postgres keys, Redis counters, Kafka acks). Nothing here needs the consumer.
const stack = connectTestStack();
// Every status this file provokes, compared at the end with the OpenAPI document's.
const seen = new Set<number>();
const postEvents = async (...args: Parameters<typeof sendEvents>) => {
  const res = await sendEvents(...args);
  seen.add(res.status);
  return res;
};
const statusOf = (reply: string) => {
  const status = rawStatusOf(reply);
  seen.add(status);
  return status;
};
let gateway: RunningService;
let tenant: Tenant;
let key: string;
const body = batchBody([event()]);

beforeAll(async () => {
  tenant = await newTenant(stack.pool, 'pro');
  key = tenant.keys.ingest!;
  gateway = await startGateway({
    FRAMEDECK_INGEST_BODY_TIMEOUT_MS: '1500',
    FRAMEDECK_INGEST_KEY_LAST_USED_FLUSH_MS: '200',
  });
});
afterAll(async () => {
  await gateway?.stop();
  await stack.close();
});

describe('POST /v1/events statuses', () => {
  it('202 {"status":"accepted"} for a valid batch, plain or gzip', async () => {
    const plain = await postEvents(body, { 'x-api-key': key });
    expect(plain.status).toBe(202);
    expect(plain.json()).toEqual({ status: 'accepted' });
    const gz = await postEvents(gzipSync(body), { 'x-api-key': key, 'content-encoding': 'gzip' });
    expect(gz.status).toBe(202);
  });

  it('202 for an empty batch, and nothing is published', async () => {
    const admin = createKafka(kafkaSection(TEST_ENV), createLogger('test', 'silent')).admin();
    await admin.connect();
    const total = async () =>
      (await admin.fetchTopicOffsets(TEST_ENV.FRAMEDECK_KAFKA_EVENTS_TOPIC!)).reduce((n, p) => n + Number(p.high), 0);
    try {
      const before = await total();
      const res = await postEvents(Buffer.alloc(0), { 'x-api-key': key });
      expect(res.status).toBe(202);
      expect(res.json()).toEqual({ status: 'accepted' });
      expect(await total()).toBe(before);
      // Control: a non-empty batch does move the offsets.
      expect((await postEvents(body, { 'x-api-key': key })).status).toBe(202);
      expect(await total()).toBe(before + 1);
    } finally {
      await admin.disconnect();
    }
  });

  it('400 for a body that is not a TelemetryBatch, and error bodies are {"error"} only', async () => {
    const res = await postEvents(Buffer.from('{"events":[{"event_name":"x"}]}'), { 'x-api-key': key });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json())).toEqual(['error']);
    expect(res.headers.get('content-type')).toBe('application/json');
  });

  it('400 for a varint longer than 10 bytes (08 ff×11 01), which a lenient decoder reads as an empty batch', async () => {
    const res = await postEvents(Buffer.from([0x08, ...Array<number>(11).fill(0xff), 0x01]), { 'x-api-key': key });
    expect(res.status).toBe(400);
    expect(res.json().error).toMatch(/not a valid protobuf/);
  });

  it('400 for a missing X-SDK-Version', async () => {
    const res = await postEvents(body, { 'x-api-key': key, 'x-sdk-version': undefined });
    expect(res.status).toBe(400);
    expect(res.json().error).toMatch(/X-SDK-Version/);
  });

  it('400 when the body is shorter than Content-Length', async () => {
    const reply = await rawRequest(
      `POST /v1/events HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/x-protobuf\r\n` +
        `X-SDK-Version: t/1\r\nContent-Length: ${body.length + 50}\r\n\r\n${body.toString('latin1')}`,
    );
    expect(statusOf(reply)).toBe(400);
    expect(reply).toContain('{"error":');
  });

  it('400 when the body is longer than Content-Length (the declared bytes do not decode)', async () => {
    const gz = gzipSync(body);
    const reply = await rawRequest(
      Buffer.concat([
        Buffer.from(
          `POST /v1/events HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/x-protobuf\r\n` +
            `Content-Encoding: gzip\r\nX-SDK-Version: t/1\r\nContent-Length: ${gz.length - 8}\r\nConnection: close\r\n\r\n`,
        ),
        gz,
      ]),
    );
    expect(statusOf(reply)).toBe(400);
  });

  it('401 without X-API-Key', async () => {
    const res = await postEvents(body, {});
    expect(res.status).toBe(401);
    expect(Object.keys(res.json())).toEqual(['error']);
  });

  it('403 for an unknown key and for a key without events:write', async () => {
    expect((await postEvents(body, { 'x-api-key': `fd_${'A'.repeat(43)}` })).status).toBe(403);
    expect((await postEvents(body, { 'x-api-key': tenant.keys.full! })).status).toBe(403);
    expect((await postEvents(body, { 'x-api-key': tenant.keys.read! })).status).toBe(403);
  });

  it("records the ingest key's last use, which the dashboard's key list shows", async () => {
    const created = await createApiKey(stack.pool, { projectId: tenant.projectId, preset: 'ingest' });
    const lastUsed = async () =>
      (await listKeysOfProject(stack.pool, tenant.projectId)).find((k) => k.id === created.key.id)!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    expect((await postEvents(body, { 'x-api-key': created.rawKey })).status).toBe(202);
    await waitFor(lastUsed, { timeoutMs: 5_000, what: 'last_used_at to be recorded' });
  });

  it('403 within seconds after the key is deactivated', async () => {
    const created = await createApiKey(stack.pool, { projectId: tenant.projectId, preset: 'ingest' });
    expect((await postEvents(body, { 'x-api-key': created.rawKey })).status).toBe(202);
    expect(await deactivateKey(stack.pool, tenant.projectId, created.key.id)).toBe(true);
    const started = Date.now();
    await waitFor(async () => (await postEvents(body, { 'x-api-key': created.rawKey })).status === 403, {
      timeoutMs: 10_000,
      intervalMs: 250,
      what: 'the deactivated key to be refused',
    });
    expect(Date.now() - started).toBeLessThan(7_000);
  });

  it('411 without Content-Length (chunked body)', async () => {
    const reply = await rawRequest(
      `POST /v1/events HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/x-protobuf\r\n` +
        `X-SDK-Version: t/1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
    );
    expect(statusOf(reply)).toBe(411);
  });

  it('413 above 126,000 bytes as sent, 202 at exactly 126,000', async () => {
    const over = await postEvents(Buffer.alloc(126_001), { 'x-api-key': key });
    expect(over.status).toBe(413);
    // 126,000 bytes of a valid batch: one event padded with an attribute to the exact size.
    const padTo = (n: number) => batchBody([event({ attributes: { pad: 'x'.repeat(n) } })]);
    let pad = 126_000 - padTo(0).length;
    while (padTo(pad).length > 126_000) pad--; // length prefixes grow with the padding
    const padded = padTo(pad);
    expect(padded.length).toBe(126_000);
    expect((await postEvents(padded, { 'x-api-key': key })).status).toBe(202);
  });

  it('413 for a gzip bomb, without the gateway exhausting its memory', async () => {
    const bomb = gzipSync(Buffer.alloc(100 * 1024 * 1024), { level: 9 }); // 100 MiB of zeros in ~100 KB
    expect(bomb.length).toBeLessThanOrEqual(126_000);
    const res = await postEvents(bomb, { 'x-api-key': key, 'content-encoding': 'gzip' });
    expect(res.status).toBe(413);
    expect(res.json().error).toMatch(/Inflated body exceeds/);
    // Still serving.
    expect((await postEvents(body, { 'x-api-key': key })).status).toBe(202);
  });

  it('400 for a corrupt gzip stream', async () => {
    const gz = gzipSync(body);
    gz[gz.length - 6] = gz[gz.length - 6]! ^ 0xff; // break the CRC
    const res = await postEvents(gz, { 'x-api-key': key, 'content-encoding': 'gzip' });
    expect(res.status).toBe(400);
  });

  it('415 for a JSON body or another Content-Type, and for a Content-Encoding other than gzip', async () => {
    const json = await postEvents(JSON.stringify({ events: [] }), {
      'x-api-key': key,
      'content-type': 'application/json',
    });
    expect(json.status).toBe(415);
    expect(Object.keys(json.json())).toEqual(['error']);
    expect((await postEvents(body, { 'x-api-key': key, 'content-type': 'text/plain' })).status).toBe(415);
    expect((await postEvents(body, { 'x-api-key': key, 'content-encoding': 'br' })).status).toBe(415);
    expect((await postEvents(body, { 'x-api-key': key, 'content-encoding': 'deflate' })).status).toBe(415);
  });

  it('429 with Retry-After above the tenant’s batches per second (Free plan: 20/s)', async () => {
    const free = await newTenant(stack.pool, 'free');
    const results = await Promise.all(
      Array.from({ length: 60 }, () => postEvents(body, { 'x-api-key': free.keys.ingest! })),
    );
    const limited = results.filter((r) => r.status === 429);
    expect(results.filter((r) => r.status === 202).length).toBeGreaterThanOrEqual(20);
    expect(limited.length).toBeGreaterThan(0);
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.json().error).toMatch(/rate limit/i);
  });

  it('429 with Retry-After when the monthly event budget is used up', async () => {
    const free = await newTenant(stack.pool, 'free');
    const now = new Date();
    const month = `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    // The Free plan's budget is 1,000,000 events a month: pretend 999,999 were already sent.
    await stack.redis.set(`ingest:events:${free.tenantId}:${month}`, '999999', 'EX', 600);
    const one = await postEvents(body, { 'x-api-key': free.keys.ingest! });
    expect(one.status).toBe(202);
    const two = await postEvents(batchBody([event(), event()]), { 'x-api-key': free.keys.ingest! });
    expect(two.status).toBe(429);
    expect(two.json().error).toMatch(/budget/i);
    expect(Number(two.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('without Idempotency-Key, the batch id is derived from the project and the inflated bytes', async () => {
    const same = batchBody([event({ eventName: `retry_${randomUUID()}` })]);
    const first = await postEvents(same, { 'x-api-key': key });
    const retry = await postEvents(gzipSync(same), { 'x-api-key': key, 'content-encoding': 'gzip' });
    expect([first.status, retry.status]).toEqual([202, 202]);
    expect(first.headers.get('x-batch-id')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(retry.headers.get('x-batch-id')).toBe(first.headers.get('x-batch-id'));
    const other = await newTenant(stack.pool, 'pro');
    const elsewhere = await postEvents(same, { 'x-api-key': other.keys.ingest! });
    expect(elsewhere.headers.get('x-batch-id')).not.toBe(first.headers.get('x-batch-id'));
    const changed = await postEvents(batchBody([event({ eventName: `retry_${randomUUID()}` })]), { 'x-api-key': key });
    expect(changed.headers.get('x-batch-id')).not.toBe(first.headers.get('x-batch-id'));
  });

  it('accepts an Idempotency-Key UUID as the batch id and refuses a malformed one', async () => {
    const id = randomUUID();
    const res = await postEvents(body, { 'x-api-key': key, 'idempotency-key': id });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-batch-id')).toBe(id);
    expect((await postEvents(body, { 'x-api-key': key, 'idempotency-key': 'retry-1' })).status).toBe(400);
  });
});

describe('invalid keys per client address', () => {
  it('429 with Retry-After after N unknown keys from one address in a window, whatever key it sends next', async () => {
    const port = '18093';
    // A private Redis namespace: the counters of this address must not reach other test files.
    const limited = await startGateway({
      FRAMEDECK_INGEST_PORT: port,
      FRAMEDECK_REDIS_PREFIX: `fdtest-${randomUUID()}:`,
      FRAMEDECK_INGEST_INVALID_KEYS_PER_WINDOW: '5',
      FRAMEDECK_INGEST_INVALID_KEYS_WINDOW_SECONDS: '60',
    });
    const url = `http://127.0.0.1:${port}`;
    try {
      // A valid key without events:write is a configuration mistake, not a guess: not counted.
      for (let i = 0; i < 6; i++)
        expect((await postEvents(body, { 'x-api-key': tenant.keys.read! }, url)).status).toBe(403);
      const guesses = [];
      for (let i = 0; i < 8; i++) guesses.push(await postEvents(body, { 'x-api-key': `fd_${randomUUID()}` }, url));
      expect(guesses.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 429, 429, 429]);
      const retryAfter = Number(guesses[5]!.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(guesses[5]!.json().error).toMatch(/invalid API keys/);
      // The address is refused whatever the key, until the window ends.
      expect((await postEvents(body, { 'x-api-key': key }, url)).status).toBe(429);
    } finally {
      await limited.stop();
    }
  });
});

describe('when a dependency is down', () => {
  it('503 {"error"} with Retry-After, promptly, when Kafka is unreachable — never 202', async () => {
    const port = '18091';
    const broken = await startGateway({
      FRAMEDECK_INGEST_PORT: port,
      FRAMEDECK_KAFKA_BROKERS: '127.0.0.1:1',
      FRAMEDECK_INGEST_PUBLISH_TIMEOUT_MS: '2000',
    });
    try {
      const started = Date.now();
      const res = await postEvents(body, { 'x-api-key': key }, `http://127.0.0.1:${port}`);
      expect(res.status).toBe(503);
      expect(Object.keys(res.json())).toEqual(['error']);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      await broken.stop();
    }
  });

  it('fails open when Redis is unreachable: the batch is accepted and published', async () => {
    const port = '18092';
    const noRedis = await startGateway({ FRAMEDECK_INGEST_PORT: port, FRAMEDECK_REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const res = await postEvents(body, { 'x-api-key': key }, `http://127.0.0.1:${port}`);
      expect(res.status).toBe(202);
      expect(noRedis.output()).toContain('ingest limits not enforced');
    } finally {
      await noRedis.stop();
    }
  });
});

describe('the OpenAPI document of the API', () => {
  it('documents exactly the statuses the gateway answered above', () => {
    const responses = ingestOpenApiPaths('http://ingest.example')['/v1/events']!.post!.responses!;
    expect(Object.keys(responses).map(Number).sort()).toEqual([...seen].sort());
  });
});
