import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { startService, waitHealthy, type RunningService } from '../support/processes.js';
import { connectTestStack } from '../support/stack.js';

// The API under concurrent mixed reads at the plans' limits, on two API processes sharing
// Redis (as two replicas behind a load balancer would). The in-process variant of the
// exactness check, on one endpoint, is tests/api/rate-limit.test.ts ("counts exactly across
// two API instances sharing Redis"); this one uses real processes, every read family at once,
// the separate whoami quota and a second tenant whose window must stay its own.
const PORTS = ['18096', '18097'];
const stack = connectTestStack();
const instances: RunningService[] = [];

beforeAll(async () => {
  for (const port of PORTS) {
    const api = startService('api', { FRAMEDECK_API_PORT: port, FRAMEDECK_APP_ORIGIN: `http://127.0.0.1:${port}` });
    instances.push(api);
    await waitHealthy(`http://127.0.0.1:${port}/healthz`, api, 60_000);
  }
}, 120_000);
afterAll(async () => {
  await Promise.allSettled(instances.map((i) => i.stop()));
  await stack.close();
});

type Answer = { status: number; ms: number; headers: Headers; body: Record<string, unknown>; path: string };

/** Every read family of the API, for one tenant (some answers are 400/403/404 on purpose: they count too). */
function mixedReads(t: BootstrapResult): { path: string; key: string; projectHeader?: boolean }[] {
  const p = `/v1/projects/${t.projectId}`;
  const full = t.keys.full!;
  return [
    { path: '/v1/projects', key: full },
    { path: `${p}/status`, key: full },
    { path: `${p}/heatmap?mapId=no-such-map`, key: full }, // 404
    { path: `${p}/insights?metric=count&groupBy=day`, key: full },
    { path: `${p}/insights?metric=unique_players&groupBy=platform&days=7`, key: full },
    { path: `${p}/maps`, key: full },
    { path: `${p}/alerts`, key: full },
    { path: `${p}/alerts/history`, key: full },
    { path: `${p}/threshold-profiles`, key: full },
    { path: `${p}/dashboard`, key: full },
    { path: `${p}/retention`, key: full },
    { path: `${p}/funnels?steps=match_start&steps=match_end`, key: full },
    { path: `${p}/builds`, key: full },
    { path: `${p}/insights?metric=nope&groupBy=day`, key: full }, // 400
    { path: '/v1/content', key: full, projectHeader: true },
    { path: '/v1/projects', key: t.keys.ingest! }, // 403: no analytics:read
  ];
}

async function burst(
  t: BootstrapResult,
  count: number,
  pick: (i: number) => { path: string; key: string; projectHeader?: boolean },
) {
  return Promise.all(
    Array.from({ length: count }, async (_, i): Promise<Answer> => {
      const { path, key, projectHeader } = pick(i);
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${PORTS[i % 2]}/api${path}`, {
        headers: { 'x-api-key': key, ...(projectHeader ? { 'x-project-id': t.projectId } : {}) },
      });
      const text = await res.text();
      return {
        status: res.status,
        ms: performance.now() - started,
        headers: res.headers,
        body: JSON.parse(text),
        path,
      };
    }),
  );
}

const remaining = (a: Answer) => Number(a.headers.get('x-ratelimit-remaining'));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

describe('API load at the plans’ limits, two processes sharing Redis', () => {
  it('a Free tenant gets exactly 100 answers an hour across every family, then 429s; whoami and a Pro tenant keep their own windows', async () => {
    const free = await bootstrapTenant(stack.pool, { plan: 'free' });
    const pro = await bootstrapTenant(stack.pool, { plan: 'pro' });
    const freeReads = mixedReads(free);
    const proReads = mixedReads(pro);

    // All at once: 160 plan-quota reads and 70 whoami calls of the Free tenant, 200 Pro reads.
    const [freeAnswers, whoami, proAnswers] = await Promise.all([
      burst(free, 160, (i) => freeReads[i % freeReads.length]!),
      burst(free, 70, (i) => ({ path: '/v1/whoami', key: i % 2 ? free.keys.ingest! : free.keys.full! })),
      burst(pro, 200, (i) => proReads[i % proReads.length]!),
    ]);
    const all = [...freeAnswers, ...whoami, ...proAnswers];
    expect(all.filter((a) => a.status >= 500).map((a) => `${a.status} ${a.path}`)).toEqual([]);

    // Free plan quota: exactly 100 answered, each remaining value 99..0 handed out once.
    const limited = freeAnswers.filter((a) => a.status === 429);
    const served = freeAnswers.filter((a) => a.status !== 429);
    expect(served).toHaveLength(100);
    expect(limited).toHaveLength(60);
    expect(served.map(remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    // Every family answered within the quota. NOTE: the ingest-key requests (403) may all lose
    // the race for the 100 slots on a loaded machine (their key lookup is a cache miss of its
    // own), so they must be 403 or 429, never served with data.
    expect([...new Set(served.map((a) => a.status))].sort()).toEqual(expect.arrayContaining([200, 400, 404]));
    expect(served.every((a) => [200, 400, 403, 404].includes(a.status))).toBe(true);
    expect(
      freeAnswers
        .filter((a, i) => i % freeReads.length === freeReads.length - 1)
        .every((a) => [403, 429].includes(a.status)),
    ).toBe(true);
    for (const a of limited) {
      expect(a.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(a.body).toMatchObject({ status: 429, error_category: 'rate_limit', retryable: true });
      const retryAfter = Number(a.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(3_500); // the oldest of the 100 leaves the window in ~1 h
      expect(retryAfter).toBeLessThanOrEqual(3_600);
      expect(a.headers.get('x-ratelimit-limit')).toBe('100');
      expect(remaining(a)).toBe(0);
    }
    // And it stays shut, on either instance.
    const after = await burst(free, 4, () => freeReads[0]!);
    expect(after.map((a) => a.status)).toEqual([429, 429, 429, 429]);

    // whoami: its own 60 per hour, not taken from (nor counted in) the plan quota.
    expect(whoami.filter((a) => a.status === 200)).toHaveLength(60);
    expect(whoami.filter((a) => a.status === 429)).toHaveLength(10);
    expect(whoami.filter((a) => a.status === 429).every((a) => Number(a.headers.get('retry-after')) > 0)).toBe(true);

    // Pro: same moment, its own window; nothing limited, counts exact.
    expect(proAnswers.filter((a) => a.status === 429)).toEqual([]);
    expect(proAnswers.map(remaining).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 200 }, (_, i) => 10_000 - 200 + i),
    );

    const ms = all.map((a) => a.ms);
    console.log(
      `api load: ${all.length} concurrent requests on 2 processes, latency p50 ${percentile(ms, 50).toFixed(0)} ms, ` +
        `p95 ${percentile(ms, 95).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms`,
    );
  });
});
