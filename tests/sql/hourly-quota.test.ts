import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisClient } from '@framedeck/redis';
import { RedisHourlyQuota, SqlQuotaExceeded } from '@framedeck/sql-sandbox';
import { testConfig } from '../support/stack.js';

/**
 * A project's hourly SQL budget counted in Redis: two RedisHourlyQuota objects on two connections
 * (two API instances, which on a cluster send queries to different ClickHouse nodes) spend one
 * budget together; each project has its own; a new clock hour starts a new budget.
 */
const one = createRedisClient(testConfig.redis);
const two = createRedisClient(testConfig.redis);
const keyPrefix = `sqlquota-test-${randomUUID()}:`;
const limits = { queries: 3, errors: 2, executionSeconds: 5 };
const HOUR = 3_600_000;
let clock = 1_000 * HOUR + 15 * 60_000; // a quarter past some hour
const now = () => clock;
const fellBack: unknown[] = [];
const onFallback = (error: unknown) => fellBack.push(error);
const instanceA = new RedisHourlyQuota({ redis: one, keyPrefix, limits, now, onFallback });
const instanceB = new RedisHourlyQuota({ redis: two, keyPrefix, limits, now, onFallback });

beforeAll(async () => {
  await Promise.all([one, two].map((c) => (c.status === 'ready' ? undefined : once(c, 'ready'))));
});

afterAll(async () => {
  await Promise.allSettled([one.quit(), two.quit()]);
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('RedisHourlyQuota across API instances', () => {
  it('counts a project’s queries on every instance against one budget, until the next hour', async () => {
    const project = randomUUID();
    await instanceA.admit(project);
    await instanceB.admit(project);
    await instanceA.admit(project);
    const refused = await refusal(instanceB.admit(project));
    expect(refused).toBeInstanceOf(SqlQuotaExceeded);
    expect((refused as SqlQuotaExceeded).message).toMatch(/3 SQL queries of this hour/);
    // Retry-After: the 45 minutes left of the hour.
    expect((refused as SqlQuotaExceeded).retryAfterSeconds).toBe(45 * 60);
    // Another project is not affected.
    await instanceB.admit(randomUUID());
    // The next hour is a new budget.
    clock += HOUR;
    await instanceA.admit(project);
    expect(fellBack).toEqual([]);
  });

  it('refuses a project whose queries failed or ran too long this hour, wherever they ran', async () => {
    const failing = randomUUID();
    await instanceA.admit(failing);
    await instanceA.record(failing, { failed: true, seconds: 0.1 });
    await instanceB.admit(failing);
    await instanceB.record(failing, { failed: true, seconds: 0.1 });
    expect(await refusal(instanceA.admit(failing))).toBeInstanceOf(SqlQuotaExceeded);

    const slow = randomUUID();
    await instanceA.admit(slow);
    await instanceA.record(slow, { failed: false, seconds: 3 });
    await instanceB.admit(slow);
    await instanceB.record(slow, { failed: false, seconds: 2.5 });
    const refused = await refusal(instanceB.admit(slow));
    expect((refused as SqlQuotaExceeded).message).toMatch(/5 s of SQL execution time/);
  });
});
