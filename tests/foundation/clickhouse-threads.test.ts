import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { openConnection } from '@framedeck/clickhouse';
import { CLICKHOUSE_ENGINES, clickhouseSection } from '@framedeck/config';
import { serviceEnv } from '../support/config.js';

// infra/local writes the machine's CPU count into the servers' default profile
// (infra/clickhouse/users.xml): left to itself, 18.16 counts physical cores through cpuid, and
// some virtual machines report one core for two CPUs, which put every API query on one thread.
describe('the local ClickHouse engines', () => {
  it.each(CLICKHOUSE_ENGINES)("%s: FrameDeck's account runs a query on every CPU", async (engine) => {
    // Each engine at its default address, as the services find it (no URL of this run's engine).
    const { url, admin } = clickhouseSection({
      ...serviceEnv({ FRAMEDECK_CLICKHOUSE_ENGINE: engine }),
      FRAMEDECK_CLICKHOUSE_URL: undefined,
    });
    // system: this run's test database may not exist on the other engine.
    const client = openConnection({ url, ...admin, database: 'system', requestTimeoutMs: 10_000, quiet: true });
    try {
      const result = await client.query({
        query: "SELECT value, changed FROM system.settings WHERE name = 'max_threads'",
        format: 'JSONEachRow',
      });
      // Set by the profile (changed), to the CPUs this machine gives, whatever the server would count.
      expect(await result.json()).toEqual([{ value: String(availableParallelism()), changed: 1 }]);
    } finally {
      await client.close();
    }
  });
});
