import { describe, expect, it } from 'vitest';
import { LocalAdmission, RedisAdmission, type AdmissionRedis } from './query-admission.js';
import { SqlQuotaExceeded } from './sandbox-errors.js';

const limits = { perTenant: 2, global: 3 };

describe('LocalAdmission', () => {
  it('caps each tenant and all tenants together, and gives slots back once', async () => {
    const admission = new LocalAdmission(limits);
    const a1 = await admission.acquire('a');
    await admission.acquire('a');
    await expect(admission.acquire('a')).rejects.toBeInstanceOf(SqlQuotaExceeded);
    const b1 = await admission.acquire('b');
    // Global cap (3) reached although tenant c has none running.
    const refused = await admission.acquire('c').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SqlQuotaExceeded);
    expect((refused as SqlQuotaExceeded).retryAfterSeconds).toBeGreaterThan(0);
    await a1.release();
    await a1.release(); // twice is once
    await admission.acquire('c');
    await expect(admission.acquire('c')).rejects.toBeInstanceOf(SqlQuotaExceeded);
    await b1.release();
    await admission.acquire('a');
  });
});

describe('RedisAdmission', () => {
  it('falls back to counting in this process when Redis fails, and says so', async () => {
    const failures: unknown[] = [];
    const down: AdmissionRedis = {
      eval: () => Promise.reject(new Error('Connection is closed.')),
      zrem: () => Promise.reject(new Error('Connection is closed.')),
    };
    const admission = new RedisAdmission({ redis: down, limits, onFallback: (e) => failures.push(e) });
    await admission.acquire('a', 'q1', 1_000);
    await admission.acquire('a', 'q2', 1_000);
    await expect(admission.acquire('a', 'q3', 1_000)).rejects.toBeInstanceOf(SqlQuotaExceeded);
    expect(failures).toHaveLength(3);
  });
});
