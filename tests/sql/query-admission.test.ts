import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisClient } from '@framedeck/redis';
import { RedisAdmission, SqlQuotaExceeded } from '@framedeck/sql-sandbox';
import { testConfig } from '../support/stack.js';

/**
 * Admission in Redis is shared by every API instance: two RedisAdmission objects on two
 * connections (two API processes) see each other's slots, and a slot whose holder died
 * expires with its lease.
 */
const one = createRedisClient(testConfig.redis);
const two = createRedisClient(testConfig.redis);
const keyPrefix = `sqlslots-test-${randomUUID()}:`;
const limits = { perTenant: 2, global: 3 };
const fellBack: unknown[] = [];
const onFallback = (error: unknown) => fellBack.push(error);
const instanceA = new RedisAdmission({ redis: one, keyPrefix, limits, onFallback });
const instanceB = new RedisAdmission({ redis: two, keyPrefix, limits, onFallback });

beforeAll(async () => {
  // Without an offline queue, commands sent before the connection is up fail (and fall back).
  await Promise.all([one, two].map((c) => (c.status === 'ready' ? undefined : once(c, 'ready'))));
});

afterAll(async () => {
  await Promise.allSettled([one.quit(), two.quit()]);
});

describe('RedisAdmission across API instances', () => {
  it('counts a tenant’s queries on every instance together, and all tenants against the global cap', async () => {
    const a1 = await instanceA.acquire('tenant-a', randomUUID(), 10_000);
    await instanceB.acquire('tenant-a', randomUUID(), 10_000);
    // A third query of tenant A is refused on either instance.
    await expect(instanceA.acquire('tenant-a', randomUUID(), 10_000)).rejects.toBeInstanceOf(SqlQuotaExceeded);
    await expect(instanceB.acquire('tenant-a', randomUUID(), 10_000)).rejects.toThrow(/of a tenant/);
    // Tenant B still gets a slot; then the global cap (3) is reached for tenant C.
    await instanceB.acquire('tenant-b', randomUUID(), 10_000);
    await expect(instanceA.acquire('tenant-c', randomUUID(), 10_000)).rejects.toThrow(/Too many SQL queries/);
    // A slot released on one instance is free on the other.
    await a1.release();
    await instanceB.acquire('tenant-c', randomUUID(), 10_000);
    expect(fellBack).toEqual([]);
  });

  it('a slot whose holder never released it expires with its lease', async () => {
    const fresh = new RedisAdmission({ redis: one, keyPrefix: `${keyPrefix}lease:`, limits });
    await fresh.acquire('tenant-d', randomUUID(), 300);
    await fresh.acquire('tenant-d', randomUUID(), 300);
    await expect(fresh.acquire('tenant-d', randomUUID(), 300)).rejects.toBeInstanceOf(SqlQuotaExceeded);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await fresh.acquire('tenant-d', randomUUID(), 300);
  });
});
