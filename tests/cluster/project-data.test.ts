import { randomUUID } from 'node:crypto';
import {
  EventsRowBinaryBlock,
  insertRollupInput,
  openConnection,
  raw,
  sql,
  uuidToRowBinary,
} from '@framedeck/clickhouse';
import { PLAYER_TABLES } from '@framedeck/analytics';
import { once } from 'node:events';
import { redisSection } from '@framedeck/config';
import { createRedisClient } from '@framedeck/redis';
import { ProjectDatabases, projectDatabaseName, RedisHourlyQuota, SANDBOX_HOURLY_LIMITS } from '@framedeck/sql-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../ingest/ingest-harness.js';
import { waitFor } from '../support/wait.js';
import { ingest, sampleBatch } from './support/cluster-load.js';
import { CLUSTER_API, CLUSTER_ENV } from './support/cluster-env.js';
import {
  clickhouseConfig,
  clusterHosts,
  ddlTasksContaining,
  NODE_PORTS,
  onEveryNode,
  waitReplicasConverged,
} from './support/cluster-stack.js';
import { useClusterSuite } from './support/cluster-suite.js';

// Erasure and the SQL sandbox on the cluster topology, through the API balancer as clients use
// them: an erased player has no row left on any replica, and a project's sandbox answers the
// same, only its own rows, on whichever ClickHouse node a query lands.

const suite = useClusterSuite(2);
const clickhouse = suite.clickhouse;
let a: Tenant;
let b: Tenant;

/** 200 events of `name` for `tenant`, players `<prefix>-0` … `<prefix>-3`, spread over both shards. */
async function seed(tenant: Tenant, name: string, prefix: string): Promise<void> {
  for (let i = 0; i < 4; i++)
    expect(
      await ingest(
        tenant,
        sampleBatch(50, name, (n) => `${prefix}-${n % 4}`),
      ),
    ).toBe(202);
}

async function storedCount(projectId: string): Promise<number> {
  const [row] = await clickhouse.rows<{ n: string }>(
    sql`SELECT count() AS n FROM events FINAL WHERE project_id = ${projectId}`,
  );
  return Number(row?.n ?? 0);
}

function api(path: string, tenant: Tenant, init: { method?: string; json?: unknown } = {}) {
  return fetch(`${CLUSTER_API}/api${path}`, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': tenant.keys.full!, 'x-project-id': tenant.projectId, 'content-type': 'application/json' },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
}

beforeAll(async () => {
  [a, b] = suite.tenants as [Tenant, Tenant];
  await seed(a, 'project_a', 'a');
  await seed(b, 'project_b', 'b');
  for (const t of [a, b]) {
    await waitFor(async () => (await storedCount(t.projectId)) === 200, { timeoutMs: 120_000, what: '200 events' });
  }
}, 300_000);

// The sandbox databases the queries created, on every node (ON CLUSTER as they were made).
afterAll(async () => {
  const databases = new ProjectDatabases(suite.clickhouse, clickhouseConfig.database, clickhouseConfig.sandbox);
  for (const t of [a, b]) if (t) await databases.remove(t.projectId);
});

describe('cluster: erasure', () => {
  it('leaves no row of an erased player on any replica of any player table, and keeps the others', async () => {
    const started = await api('/v1/data/erase', a, { method: 'POST', json: { playerIds: ['a-1'] } });
    expect(started.status, await started.clone().text()).toBe(202);
    const { jobId } = ((await started.json()) as { data: { jobId: string } }).data;
    // The API instances' erasure sweep starts the mutation ON CLUSTER and says done only once
    // every replica applied it and the Distributed tables count no row.
    await waitFor(
      async () => {
        const poll = await api(`/v1/data/erase/${jobId}`, a);
        return poll.status === 200 && ((await poll.json()) as { data: { status: string } }).data.status === 'done';
      },
      { timeoutMs: 180_000, intervalMs: 1_000, what: 'the erasure job to be done' },
    );
    const perNode = await onEveryNode(async (node) => {
      const counts: Record<string, number> = {};
      for (const table of PLAYER_TABLES) {
        await node.command(raw(`SYSTEM SYNC REPLICA ${table}_local`));
        const [row] = await node.rows<{ erased: string; kept: string }>(
          sql`SELECT countIf(player_id = 'a-1') AS erased, countIf(player_id != 'a-1') AS kept
                FROM ${raw(`${table}_local`)} WHERE project_id = toUUID(${a.projectId})`,
        );
        counts[`${table} erased`] = Number(row?.erased);
        counts[`${table} kept`] = Number(row?.kept);
      }
      return counts;
    });
    for (const counts of perNode) {
      for (const table of PLAYER_TABLES) expect(counts[`${table} erased`], table).toBe(0);
    }
    // Each shard's two replicas agree, and the other players' events are all still there: a-1
    // had 13 of each 50-event batch (n % 4 = 1), so 200 - 4 × 13 remain.
    expect(perNode[0]).toEqual(perNode[1]);
    expect(perNode[2]).toEqual(perNode[3]);
    expect(perNode[0]!['events kept']! + perNode[2]!['events kept']!).toBe(148);
    expect(await storedCount(b.projectId)).toBe(200);
    // Each table's mutation went to one replica of each shard (the alter cluster), never to both
    // replicas of a shard, which can stop 18.16's DDL worker (docs/deployment.md).
    const alter = await clusterHosts(clickhouseConfig.alterCluster!);
    expect(alter.shards).toBe((await clusterHosts(clickhouseConfig.cluster!)).shards);
    expect(alter.hosts).toHaveLength(alter.shards);
    const tasks = await ddlTasksContaining(a.projectId);
    expect(tasks.filter((t) => t.query.startsWith('ALTER TABLE')).length).toBeGreaterThanOrEqual(PLAYER_TABLES.length);
    for (const task of tasks) expect(task.hosts, task.query).toEqual(alter.hosts);
  });
});

describe('cluster: SQL sandbox', () => {
  const COUNT_BY_NAME = 'SELECT event_name, count() AS n FROM events GROUP BY event_name ORDER BY event_name';

  it('answers a project only its own rows through the API, whichever instance and node serve it', async () => {
    // The balancers hand each new connection to the next instance and node: several queries
    // meet both APIs and every ClickHouse node.
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${CLUSTER_API}/api/v1/query`, {
        method: 'POST',
        headers: { 'x-api-key': b.keys.full!, 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify({ project_id: b.projectId, sql: COUNT_BY_NAME }),
      });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(JSON.parse(text).data.rows).toEqual([{ event_name: 'project_b', n: 200 }]);
    }
  });

  it('has the project’s view on every node, reading every shard, and it shows no other project’s rows', async () => {
    const database = projectDatabaseName(b.projectId);
    const answers = await Promise.all(
      NODE_PORTS.map(async (port) => {
        // As the sandbox runs a query on 18.16: the shared sandbox user, the project's database.
        const analyst = openConnection({
          url: `http://127.0.0.1:${port}`,
          user: clickhouseConfig.sandbox.user,
          password: clickhouseConfig.sandbox.password,
          database,
          requestTimeoutMs: 30_000,
        });
        try {
          const result = await analyst.query({ query: COUNT_BY_NAME, format: 'JSONEachRow' });
          return await result.json<{ event_name: string; n: string }>();
        } finally {
          await analyst.close();
        }
      }),
    );
    for (const rows of answers) expect(rows.map((r) => [r.event_name, Number(r.n)])).toEqual([['project_b', 200]]);
  });
});

describe('cluster: SQL hourly budget', () => {
  // ClickHouse counts its quota per node; the API counts the project's hour in Redis for every
  // instance and node (libs/sql-sandbox hourly-quota.ts).
  it('refuses a project whose hour was spent, on every API instance and ClickHouse node', async () => {
    const redis = createRedisClient(redisSection(CLUSTER_ENV));
    try {
      if (redis.status !== 'ready') await once(redis, 'ready');
      const services = new RedisHourlyQuota({ redis });
      for (let i = 0; i < SANDBOX_HOURLY_LIMITS.queries; i += 100) {
        await Promise.all(Array.from({ length: 100 }, () => services.admit(a.projectId)));
      }
    } finally {
      await redis.quit();
    }
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${CLUSTER_API}/api/v1/query`, {
        method: 'POST',
        headers: { 'x-api-key': a.keys.full!, 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify({ project_id: a.projectId, sql: 'SELECT count() AS n FROM events' }),
      });
      expect(res.status, await res.text()).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});

describe('cluster: rollup inserts', () => {
  /** 20 events of one batch as the consumer encodes them: equal for equal batch ids. */
  function rollupBlock(projectId: string, batchId: string, name: string): Buffer {
    const block = new EventsRowBinaryBlock(1 << 20);
    const context = {
      projectId: uuidToRowBinary(projectId),
      batchId: uuidToRowBinary(batchId),
      sdkVersion: 'cluster-test/1',
      receivedAtSeconds: Math.floor(Date.now() / 1000),
      retentionDays: 90,
      firstEventIndex: 0,
    };
    for (let i = 0; i < 20; i++)
      block.append(
        context,
        {
          eventName: name,
          timestampUs: Date.now() * 1000,
          sessionId: 's',
          playerId: 'p',
          position: { x: 1, y: 1, z: 0 },
          mapId: 'cluster_map',
          fps: 60,
          frameTimeMs: 16.6,
          memoryUsedBytes: 0,
          gpuTimeMs: 0,
          attributes: {},
          metrics: {},
          source: 1,
          buildId: 'b1',
          platform: 'pc',
          engineVersion: '',
          gameThreadMs: 0,
          renderThreadMs: 0,
        },
        i,
      );
    return Buffer.from(block.bytes());
  }

  async function rolledUp(projectId: string, name: string): Promise<number> {
    await waitReplicasConverged();
    const [row] = await clickhouse.rows<{ n: string }>(
      sql`SELECT sum(events) AS n FROM rollup_daily_counts WHERE project_id = ${projectId} AND event_name = ${name}`,
    );
    return Number(row?.n ?? 0);
  }

  // The consumer retries a failed rollup insert with the same rows. When the replica that took
  // the first attempt died before the other replica fetched its parts, the ledger read cannot
  // tell (topology.test.ts kills one): the replicas' insert deduplication drops the repeat, and
  // each rollup row's mark (clickhouse/015) keeps another batch's equal rows from being dropped.
  it('counts a repeated rollup block once, and an equal block of another batch again', async () => {
    const name = `rollup_retry_${Date.now()}`;
    const first = rollupBlock(a.projectId, randomUUID(), name);
    await insertRollupInput(clickhouse, first);
    await insertRollupInput(clickhouse, first);
    expect(await rolledUp(a.projectId, name)).toBe(20);
    await insertRollupInput(clickhouse, rollupBlock(a.projectId, randomUUID(), name));
    expect(await rolledUp(a.projectId, name)).toBe(40);
  });
});
