import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, createProjectWithKeys } from '@framedeck/accounts';
import { startApi, type ApiResponse, type TestApi } from './support/api-harness.js';
import { OpenApiValidator } from './support/openapi-validator.js';

function rateLimitHeaders(res: ApiResponse) {
  const read = (name: string) => {
    const value = res.headers.get(name);
    expect(value, `${name} missing on ${res.status} ${res.text}`).toMatch(/^\d+$/);
    return Number(value);
  };
  return {
    limit: read('x-ratelimit-limit'),
    remaining: read('x-ratelimit-remaining'),
    reset: read('x-ratelimit-reset'),
  };
}

let api: TestApi;
let validator: OpenApiValidator;
beforeAll(async () => {
  api = await startApi();
  validator = new OpenApiValidator(api.api.openApiDocument);
});
afterAll(() => api.close());

describe('rate-limit headers', () => {
  it('are on every answer, success and errors alike, counting one tenant-wide window', async () => {
    const t = await bootstrapTenant(api.pool, { plan: 'free' });
    const second = await createProjectWithKeys(api.pool, { tenantId: t.tenantId, name: 'Second game' });
    const before = Date.now();
    const answers = [
      await api.request('/v1/projects', { key: t.keys.full }), // 200
      await api.request('/v1/projects', { key: t.keys.ingest }), // 403
      await api.request(`/v1/projects/${randomUUID()}/status`, { key: t.keys.full }), // 404
      await api.request('/v1/projects/not-a-uuid/status', { key: t.keys.full }), // 400
      await api.request('/v1/no-such-thing', { key: second.keys.full }), // 404, other project, same tenant
      await api.request(`/v1/projects/${second.projectId}/keys`, {
        key: second.keys.full,
        method: 'POST',
        rawBody: 'x',
        headers: { 'content-type': 'text/plain' },
      }), // 415
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 403, 404, 400, 404, 415]);
    answers.forEach((res, i) => {
      const h = rateLimitHeaders(res);
      expect(h.limit).toBe(100);
      expect(h.remaining).toBe(99 - i); // every request counts, whichever key or project
      expect(h.reset).toBeGreaterThanOrEqual(before + 3_600_000); // Unix ms, oldest entry + 1 h
      expect(h.reset).toBeLessThan(Date.now() + 3_600_000 + 1_000);
    });
  });

  it('are on 401 answers too, counted per client address (no tenant is known)', async () => {
    const res = await api.request('/v1/projects', { key: 'fd_not-a-real-key-at-all-000000' });
    validator.expectProblem(res, 401);
    expect(rateLimitHeaders(res).limit).toBe(100_000); // the harness's anonymous limit
  });

  it('limit unauthenticated requests per client address', async () => {
    const strict = await startApi({ env: { FRAMEDECK_API_ANONYMOUS_REQUESTS_PER_HOUR: '2' } });
    try {
      expect((await strict.request('/v1/projects')).status).toBe(401);
      expect((await strict.request('/v1/projects', { bearer: 'nope' })).status).toBe(401);
      const limited = await strict.request('/v1/projects');
      validator.expectProblem(limited, 429);
      expect(rateLimitHeaders(limited).remaining).toBe(0);
    } finally {
      await strict.close();
    }
  });
});

describe('plan quota', () => {
  it('counts exactly across two API instances sharing Redis, and 429s say when to come back', async () => {
    const shared = `rl-${randomUUID()}:`;
    const second = await startApi({ rateLimitKeyPrefix: shared });
    const first = await startApi({ rateLimitKeyPrefix: shared });
    try {
      const t = await bootstrapTenant(api.pool, { plan: 'free' });
      const answers = await Promise.all(
        Array.from({ length: 130 }, (_, i) =>
          (i % 2 ? first : second).request('/v1/projects', { key: i % 3 ? t.keys.full : t.keys.ingest }),
        ),
      );
      const limited = answers.filter((a) => a.status === 429);
      expect(answers.length - limited.length).toBe(100);
      expect(limited).toHaveLength(30);
      const remainings = answers.filter((a) => a.status !== 429).map((a) => rateLimitHeaders(a).remaining);
      expect(remainings.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i)); // 0..99, each once
      for (const res of limited) {
        validator.expectProblem(res, 429);
        expect(res.body).toMatchObject({ error_category: 'rate_limit', retryable: true });
        const retryAfter = Number(res.headers.get('retry-after'));
        expect(res.body.retry_after).toBe(retryAfter);
        // The oldest of the 100 was made seconds ago: it leaves the window in just under an hour.
        expect(retryAfter).toBeGreaterThan(3_500);
        expect(retryAfter).toBeLessThanOrEqual(3_600);
        const h = rateLimitHeaders(res);
        expect(h.remaining).toBe(0);
        expect(h.limit).toBe(100);
      }
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe('sliding window', () => {
  it('frees one slot per old request leaving the window, not the whole quota at a boundary', async () => {
    let now = Date.now();
    // The whoami quota (3 here) uses the same sliding window as the plan quota.
    const windowed = await startApi({
      now: () => now,
      env: { FRAMEDECK_API_RATE_LIMIT_WINDOW_MS: '10000', FRAMEDECK_API_WHOAMI_REQUESTS_PER_HOUR: '3' },
    });
    try {
      const t = await bootstrapTenant(api.pool, { plan: 'free' });
      const whoami = () => windowed.request('/v1/whoami', { key: t.keys.ingest });
      const start = now;
      expect((await whoami()).status).toBe(200); // t = 0
      now += 4_000;
      expect((await whoami()).status).toBe(200); // t = 4 s
      const last = await whoami(); // t = 4 s
      expect(rateLimitHeaders(last)).toEqual({ limit: 3, remaining: 0, reset: start + 10_000 });

      const full = await whoami();
      expect(full.status).toBe(429);
      expect(full.headers.get('retry-after')).toBe('6'); // until the t = 0 request leaves

      now = start + 9_999;
      const edge = await whoami();
      expect(edge.status).toBe(429);
      expect(edge.headers.get('retry-after')).toBe('1');

      now = start + 10_000; // the t = 0 request has left; the two of t = 4 s have not
      const freed = await whoami();
      expect(freed.status).toBe(200);
      expect(rateLimitHeaders(freed)).toEqual({ limit: 3, remaining: 0, reset: start + 14_000 });
      const again = await whoami(); // a fixed window would have reset all three here
      expect(again.status).toBe(429);
      expect(again.headers.get('retry-after')).toBe('4');

      now = start + 14_000;
      expect((await whoami()).status).toBe(200);
      expect((await whoami()).status).toBe(200);
      expect((await whoami()).status).toBe(429);
    } finally {
      await windowed.close();
    }
  });
});

describe('Redis unavailable', () => {
  it('fails open to a per-instance window with the same limits, and says so in the log', async () => {
    const offline = await startApi({ env: { FRAMEDECK_REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const t = await bootstrapTenant(api.pool, { plan: 'free' });
      const answers: ApiResponse[] = [];
      for (let i = 0; i < 101; i++) answers.push(await offline.request('/v1/projects', { key: t.keys.full }));
      expect(answers.slice(0, 100).every((a) => a.status === 200)).toBe(true);
      expect(rateLimitHeaders(answers[99]!).remaining).toBe(0);
      validator.expectProblem(answers[100]!, 429);
      expect(offline.logs.some((l) => l.includes('Redis unavailable'))).toBe(true);
    } finally {
      await offline.close();
    }
  });
});
