import { createClickHouseWriter } from '@framedeck/clickhouse';
import { postgresSection } from '@framedeck/config';
import { createPool } from '@framedeck/postgres';
import { afterAll, beforeAll } from 'vitest';
import { newTenant, type Tenant } from '../../ingest/ingest-harness.js';
import { CLUSTER_ENV } from './cluster-env.js';
import { clickhouseConfig, ClusterServices, waitReplicasConverged } from './cluster-stack.js';

/** What a cluster test file works with; `tenants` and `services` are set once its beforeAll ran. */
export type ClusterSuite = {
  pool: ReturnType<typeof createPool>;
  clickhouse: ReturnType<typeof createClickHouseWriter>;
  tenants: Tenant[];
  services: ClusterServices;
};

/**
 * A cluster test file's setup: once the replicas agree, `tenants` new pro tenants and every
 * service twice behind the balancers; everything stopped and closed after the file.
 */
export function useClusterSuite(tenants: number): ClusterSuite {
  const suite = {
    pool: createPool(postgresSection(CLUSTER_ENV)),
    clickhouse: createClickHouseWriter(clickhouseConfig),
    tenants: [] as Tenant[],
  } as ClusterSuite;
  beforeAll(async () => {
    await waitReplicasConverged();
    for (let i = 0; i < tenants; i++) suite.tenants.push(await newTenant(suite.pool, 'pro'));
    suite.services = await ClusterServices.start();
  }, 300_000);
  afterAll(async () => {
    await suite.services?.stop();
    await Promise.allSettled([suite.pool.end(), suite.clickhouse.close()]);
  }, 120_000);
  return suite;
}
