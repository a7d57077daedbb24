import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaSection } from '@framedeck/config';
import { createKafka, ensureTopics } from '@framedeck/kafka';
import { createLogger } from '@framedeck/logging';
import { Prng } from '../../libs/sender/src/simulator/prng.js';
import { newTenant, postEvents, rawRequest, statusOf, type Tenant } from '../ingest/ingest-harness.js';
import type { RunningService } from '../support/processes.js';
import { connectTestStack } from '../support/stack.js';
import { FUZZ_SEED, RELIABILITY_FULL, TEST_ENV } from '../support/config.js';
import { startGateway } from '../ingest/ingest-harness.js';
import { TelemetryFuzzer, type FuzzCase } from './support/telemetry-fuzz.js';

// The gateway from the attacker's side: hostile bodies (support/telemetry-fuzz.ts), damaged
// gzip and wrong headers over HTTP, and malformed framing over a raw socket. Every request is
// answered within a bound with a documented status and, on errors, an {"error"} body only;
// the process stays up and its memory bounded. Seeded: FRAMEDECK_FUZZ_SEED reproduces a run.
const REQUESTS = RELIABILITY_FULL ? 2_000 : 400;
const DOCUMENTED = new Set([202, 400, 401, 403, 411, 413, 415, 429, 503]);
const ANSWER_WITHIN_MS = 10_000;
const PORT = '18095';
const URL = `http://127.0.0.1:${PORT}`;
// Accepted fuzz batches go to a topic no consumer reads: they are junk by construction.
const TOPIC = 'framedeck-test-fuzz.telemetry-batches.v1';

const stack = connectTestStack();
let gateway: RunningService;
let tenant: Tenant;

beforeAll(async () => {
  const kafkaConfig = kafkaSection({ ...TEST_ENV, FRAMEDECK_KAFKA_EVENTS_TOPIC: TOPIC });
  await ensureTopics(createKafka(kafkaConfig, createLogger('fuzz', 'silent')), kafkaConfig);
  tenant = await newTenant(stack.pool, 'pro');
  gateway = await startGateway({
    FRAMEDECK_INGEST_PORT: PORT,
    FRAMEDECK_KAFKA_EVENTS_TOPIC: TOPIC,
    FRAMEDECK_INGEST_BODY_TIMEOUT_MS: '1500',
  });
});
afterAll(async () => {
  await gateway?.stop();
  await stack.close();
});

function rssMegabytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

type Headers = Record<string, string | undefined>;

/** Valid headers with one or two of them made wrong. */
function hostileHeaders(rng: Prng, keys: Tenant['keys']): Headers {
  const headers: Headers = { 'x-api-key': keys.ingest };
  const options: (() => void)[] = [
    () => (headers['content-type'] = pick(rng, ['application/json', 'text/plain', '', 'application/x-protobuf, a/b'])),
    () => (headers['content-type'] = pick(rng, ['APPLICATION/X-PROTOBUF', 'application/x-protobuf; charset=utf-8'])),
    () => (headers['content-encoding'] = pick(rng, ['deflate', 'br', 'gzip, gzip', 'identity', 'GZIP', 'x'])),
    () => (headers['x-sdk-version'] = pick(rng, [undefined, '', ' ', 'v'.repeat(129), 'ok/1'])),
    () => (headers['x-api-key'] = pick(rng, [undefined, '', 'not-a-key', `fd_${'a'.repeat(40)}`, 'fd_'.repeat(2_000)])),
    () => (headers['x-api-key'] = keys.read), // a valid key without events:write
    () => (headers['idempotency-key'] = pick(rng, ['not-a-uuid', randomUUID(), randomUUID().toUpperCase(), ''])),
  ];
  for (let i = 1 + Math.floor(rng.next() * 2); i > 0; i--) pick(rng, options)();
  return headers;
}

function pick<T>(rng: Prng, values: readonly T[]): T {
  return values[Math.floor(rng.next() * values.length)]!;
}

/** Malformed framing that fetch will not send: raw bytes on a socket. */
function rawCases(key: string): { kind: string; bytes: string }[] {
  const head = (lines: string[]) =>
    `POST /v1/events HTTP/1.1\r\nhost: x\r\nx-api-key: ${key}\r\nx-sdk-version: fuzz/1\r\n` +
    `content-type: application/x-protobuf\r\n${lines.join('\r\n')}\r\n\r\n`;
  return [
    { kind: 'content-length above the body', bytes: head(['content-length: 50', 'connection: close']) + 'abc' },
    { kind: 'content-length below the body', bytes: head(['content-length: 2']) + '\n\u0001abcdefgh' },
    { kind: 'chunked, no content-length', bytes: head(['transfer-encoding: chunked']) + '3\r\nabc\r\n0\r\n\r\n' },
    { kind: 'content-length and chunked', bytes: head(['content-length: 3', 'transfer-encoding: chunked']) + 'abc' },
    { kind: 'negative content-length', bytes: head(['content-length: -1']) },
    { kind: 'non-numeric content-length', bytes: head(['content-length: 1e3']) },
    { kind: 'two content-lengths', bytes: head(['content-length: 1', 'content-length: 2']) + 'ab' },
    { kind: 'huge content-length', bytes: head(['content-length: 99999999999999999999']) },
    { kind: 'header without colon', bytes: head(['garbage-line', 'content-length: 0']) },
    { kind: 'oversized header block', bytes: head([`x-pad: ${'a'.repeat(70_000)}`, 'content-length: 0']) },
    { kind: 'garbage request line', bytes: '\u0000\u0001\u0002 GARBAGE\r\n\r\n' },
    { kind: 'HTTP/0.9 style', bytes: 'POST /v1/events\r\n\r\n' },
  ];
}

describe(`ingest gateway fuzzing (seed ${FUZZ_SEED}, ${REQUESTS} requests)`, () => {
  it('answers every hostile request promptly with a documented status and an {"error"} body', async () => {
    const fuzzer = new TelemetryFuzzer(FUZZ_SEED);
    const rng = new Prng(FUZZ_SEED ^ 0x5eed);
    const rssBefore = rssMegabytes(gateway.child.pid!);
    const statuses: Record<number, number> = {};
    let next = 0;
    const worker = async () => {
      while (next < REQUESTS) {
        const i = next++;
        const roll = rng.next();
        const fuzz: FuzzCase = roll < 0.2 ? fuzzer.gzipCase() : fuzzer.next();
        const headers: Headers =
          roll < 0.2
            ? { 'x-api-key': tenant.keys.ingest, 'content-encoding': 'gzip' }
            : roll < 0.35
              ? hostileHeaders(rng, tenant.keys)
              : { 'x-api-key': tenant.keys.ingest };
        const where = `seed ${FUZZ_SEED}, request ${i} (${fuzz.kind}, ${fuzz.bytes.length} bytes, headers ${JSON.stringify(
          Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v?.slice(0, 40)])),
        )})`;
        const started = Date.now();
        const res = await postEvents(fuzz.bytes, headers, URL).catch((error: Error) => {
          throw new Error(`${where}: no answer: ${error.message}`);
        });
        expect(Date.now() - started, where).toBeLessThan(ANSWER_WITHIN_MS);
        expect(DOCUMENTED.has(res.status), `${where}: ${res.status} ${res.body}`).toBe(true);
        expect(res.headers.get('content-type'), where).toBe('application/json');
        const json = res.json();
        if (res.status === 202) expect(json, where).toEqual({ status: 'accepted' });
        else expect(Object.keys(json).join() === 'error' && typeof json.error === 'string', where).toBe(true);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));

    for (const { kind, bytes } of rawCases(tenant.keys.ingest!)) {
      const started = Date.now();
      const reply = await rawRequest(bytes, Number(PORT));
      const status = statusOf(reply);
      expect(DOCUMENTED.has(status), `${kind}: ${reply.slice(0, 200)}`).toBe(true);
      expect(Date.now() - started, kind).toBeLessThan(ANSWER_WITHIN_MS);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }

    // Still up, still healthy, memory bounded.
    expect(gateway.child.exitCode).toBeNull();
    expect((await fetch(`${URL}/healthz`)).status).toBe(200);
    const rssAfter = rssMegabytes(gateway.child.pid!);
    console.log(
      `ingest fuzz seed ${FUZZ_SEED}: statuses ${JSON.stringify(statuses)}; gateway RSS ${rssBefore.toFixed(0)} -> ${rssAfter.toFixed(0)} MB`,
    );
    expect(rssAfter).toBeLessThan(400);
    // The corpus reached both sides: accepted batches and each kind of refusal.
    for (const status of [202, 400, 401, 403, 413, 415])
      expect(statuses[status], `no ${status} seen`).toBeGreaterThan(0);
    expect(gateway.output()).not.toMatch(/ingest request failed/); // no 500 path was taken
  });
});
