import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RedisHourlyQuota, SANDBOX_HOURLY_LIMITS, type QuotaRedis } from './hourly-quota.js';

describe('SANDBOX_HOURLY_LIMITS', () => {
  it('are the sandbox quota of infra/clickhouse/users.xml, per hour', () => {
    const xml = readFileSync(new URL('../../../infra/clickhouse/users.xml', import.meta.url), 'utf8');
    const sandbox = /<sandbox>([\s\S]*?)<\/sandbox>/.exec(xml.slice(xml.indexOf('<quotas>')))![1]!;
    const value = (name: string) => Number(new RegExp(`<${name}>(\\d+)</${name}>`).exec(sandbox)![1]);
    expect(value('duration')).toBe(3600);
    expect(SANDBOX_HOURLY_LIMITS).toEqual({
      queries: value('queries'),
      errors: value('errors'),
      executionSeconds: value('execution_time'),
    });
  });
});

describe('RedisHourlyQuota', () => {
  it('lets queries run when Redis fails (ClickHouse’s own quota still applies), and says so', async () => {
    const failures: unknown[] = [];
    const down: QuotaRedis = { eval: () => Promise.reject(new Error('Connection is closed.')) };
    const quota = new RedisHourlyQuota({ redis: down, onFallback: (e) => failures.push(e) });
    await quota.admit('p');
    await quota.record('p', { failed: true, seconds: 1 });
    expect(failures).toHaveLength(2);
  });
});
