import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { Prng } from '../../libs/sender/src/simulator/prng.js';
import { uploadMap } from '../analytics/api-helpers.js';
import { startApi, type ApiResponse, type TestApi } from '../api/support/api-harness.js';
import { FUZZ_SEED, RELIABILITY_FULL } from '../support/config.js';

// The API's parameter parsing from the attacker's side: random query strings and random JSON
// bodies. Input can only ever be the caller's fault (4xx) — a 500 means input reached code
// that did not expect it. Heatmap and insights, the spec's parameter tables, are held to
// exactly 200/400/404. Seeded: FRAMEDECK_FUZZ_SEED reproduces a run.
const QUERY_CASES = RELIABILITY_FULL ? 1_500 : 300;
const BODY_CASES = RELIABILITY_FULL ? 600 : 120;

let api: TestApi;
let tenant: BootstrapResult;

beforeAll(async () => {
  api = await startApi();
  tenant = await bootstrapTenant(api.pool, { plan: 'enterprise' });
  expect((await uploadMap(api, { key: tenant.keys.full!, projectId: tenant.projectId })).status).toBe(201);
});
afterAll(() => api?.close());

const HOSTILE_VALUES = [
  '',
  ' ',
  '7',
  '10',
  '25',
  'arena',
  'count',
  'day',
  '-1',
  '0',
  '7.0',
  '1e3',
  '1e309',
  '0x10',
  'NaN',
  'Infinity',
  '99999999999999999999',
  'null',
  'true',
  '[]',
  '{}',
  '%00',
  '%ff%fe',
  '%',
  "' OR 1=1 --",
  'arena\u0000',
  '../../etc/passwd',
  '漢字🎮',
  'a'.repeat(300),
  // Long, but the whole URL stays under Node's 16 KB header limit (above it Node itself answers 431).
  'b'.repeat(2_000),
];
const QUERY_NAMES = [
  'mapId',
  'cellSize',
  'days',
  'eventName',
  'metric',
  'groupBy',
  'limit',
  'a',
  'days[]',
  '__proto__',
];

/**
 * A query string: the endpoint's valid parameters with some replaced, dropped, repeated or
 * joined by unknown ones, values drawn from the hostile list (some left unencoded).
 */
function randomQuery(rng: Prng, valid: Record<string, string> = {}): string {
  const pick = <T>(values: readonly T[]) => values[Math.floor(rng.next() * values.length)]!;
  const parts = Object.entries(valid).filter(() => rng.chance(0.9));
  for (let i = rng.chance(0.3) ? 0 : 1 + Math.floor(rng.next() * 4); i > 0; i--) {
    const entry: [string, string] = [pick(QUERY_NAMES), pick(HOSTILE_VALUES)];
    if (rng.chance(0.5) && parts.length) parts[Math.floor(rng.next() * parts.length)] = entry;
    else parts.push(entry);
  }
  // Mostly encoded; sometimes raw, so the parser sees stray % and & and =.
  return parts.map(([k, v]) => `${k}=${rng.chance(0.8) ? encodeURIComponent(v) : v}`).join('&');
}

const VALID_QUERIES = {
  heatmap: { mapId: 'arena', cellSize: '25', days: '7' },
  insights: { metric: 'count', groupBy: 'day', days: '30', limit: '10' },
};

/** A random JSON value: nested, big, of the wrong types, with prototype-pollution keys. */
function randomJson(rng: Prng, depth = 0): unknown {
  const roll = rng.next();
  if (depth > 6 || roll < 0.35) {
    return [null, true, 0, -1, 1e308, 'x', '', 'a'.repeat(5_000), randomUUID(), '2024-01-01T00:00:00Z', 'fps', 'warn'][
      Math.floor(rng.next() * 12)
    ];
  }
  if (roll < 0.55) return Array.from({ length: Math.floor(rng.next() * 5) }, () => randomJson(rng, depth + 1));
  const keys = [
    'name',
    'mapId',
    'metric',
    'url',
    'type',
    'preset',
    'scopes',
    'sql',
    'limit',
    'playerIds',
    'project_id',
  ];
  const object: Record<string, unknown> = {};
  for (let i = Math.floor(rng.next() * 6); i > 0; i--) {
    object[keys[Math.floor(rng.next() * keys.length)]!] = randomJson(rng, depth + 1);
  }
  if (rng.chance(0.1)) Object.defineProperty(object, '__proto__', { value: { admin: true }, enumerable: true });
  return object;
}

function expectClientError(res: ApiResponse, where: string): void {
  expect(res.status, `${where}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.headers.get('content-type') ?? '', `${where}: ${res.status} ${res.text.slice(0, 200)}`).toMatch(
      /^application\/problem\+json/,
    );
    expect(res.body?.status, where).toBe(res.status);
  }
}

describe(`API parameter fuzzing (seed ${FUZZ_SEED})`, () => {
  it('heatmap and insights answer random query strings with 200, 400 or 404 only', async () => {
    const rng = new Prng(FUZZ_SEED);
    const seen: Record<number, number> = {};
    for (let i = 0; i < QUERY_CASES; i++) {
      const endpoint = rng.chance(0.5) ? 'heatmap' : 'insights';
      const url = `/v1/projects/${tenant.projectId}/${endpoint}?${randomQuery(rng, VALID_QUERIES[endpoint])}`;
      const where = `seed ${FUZZ_SEED}, case ${i}: GET ${url.slice(0, 300)}`;
      const res = await api.request(url, { key: tenant.keys.read });
      expect([200, 400, 404], `${where}: ${res.status} ${res.text.slice(0, 300)}`).toContain(res.status);
      expectClientError(res, where);
      seen[res.status] = (seen[res.status] ?? 0) + 1;
    }
    // Valid combinations were drawn too, not only refusals.
    expect(seen[200]).toBeGreaterThan(0);
    expect(seen[400]).toBeGreaterThan(0);
    console.log(`api query fuzz seed ${FUZZ_SEED}: ${JSON.stringify(seen)}`);
  });

  it('every documented operation answers random query strings and JSON bodies without a 5xx', async () => {
    const rng = new Prng(FUZZ_SEED ^ 0xb0d1);
    // Operations on {base_url} only: the ingest endpoint has a server of its own.
    const operations = Object.entries(api.api.openApiDocument.paths as Record<string, Record<string, unknown>>)
      .filter(([, item]) => !item.servers)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ path, method: method.toUpperCase() })))
      .filter(({ path }) => path.startsWith('/v1/') && path !== '/v1/session');
    expect(operations.length).toBeGreaterThan(25);
    const fill = (path: string) =>
      path
        .replace('{id}', tenant.projectId)
        .replace(/\{[a-zA-Z]+\}/g, () =>
          encodeURIComponent(
            [randomUUID(), 'arena', 'not-a-uuid', '..', '%00', 'x'.repeat(300)][Math.floor(rng.next() * 6)]!,
          ),
        );
    const seen: Record<number, number> = {};
    for (let i = 0; i < BODY_CASES; i++) {
      const { path, method } = operations[Math.floor(rng.next() * operations.length)]!;
      // Bodies mostly without a query string: unknown parameters are refused before the body is read.
      const url = method === 'GET' || rng.chance(0.3) ? `${fill(path)}?${randomQuery(rng)}` : fill(path);
      const json = method === 'GET' ? undefined : randomJson(rng);
      const where = `seed ${FUZZ_SEED}, case ${i}: ${method} ${url.slice(0, 200)} ${JSON.stringify(json)?.slice(0, 200)}`;
      const res = await api.request(url, {
        method,
        key: tenant.keys.full,
        projectId: tenant.projectId,
        ...(json === undefined ? {} : { json }),
      });
      expectClientError(res, where);
      seen[res.status] = (seen[res.status] ?? 0) + 1;
    }
    console.log(`api body fuzz seed ${FUZZ_SEED}: ${JSON.stringify(seen)}`);
    expect(api.logs.filter((l) => l.includes('unhandled error'))).toEqual([]);
  });
});
