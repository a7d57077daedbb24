import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { clickhouseSection } from '@framedeck/config';
import { inheritedEnv, serviceEnv } from '../support/config.js';

// infra/local writes the machine's CPU count into the servers' default profile
// (infra/clickhouse/users.xml): left to itself, 18.16 counts physical cores through cpuid, and
// some virtual machines report one core for two CPUs, which put every API query on one thread.
const env = inheritedEnv();
const ENGINES = {
  legacy: Number(env.FRAMEDECK_CLICKHOUSE_HTTP_PORT ?? 8123),
  modern: Number(env.FRAMEDECK_CLICKHOUSE_MODERN_HTTP_PORT ?? 8124),
};
const { admin } = clickhouseSection(serviceEnv());

describe('the local ClickHouse engines', () => {
  it.each(Object.entries(ENGINES))("%s: FrameDeck's account runs a query on every CPU", async (_engine, port) => {
    const query = "SELECT value, changed FROM system.settings WHERE name = 'max_threads' FORMAT JSONEachRow";
    const response = await fetch(`http://127.0.0.1:${port}/?query=${encodeURIComponent(query)}`, {
      headers: { 'X-ClickHouse-User': admin.user, 'X-ClickHouse-Key': admin.password },
    });
    expect(response.status).toBe(200);
    // Set by the profile (changed), to the CPUs this machine gives, whatever the server would count.
    expect(JSON.parse(await response.text())).toEqual({ value: String(availableParallelism()), changed: 1 });
  });
});
