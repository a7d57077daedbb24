import { randomUUID } from 'node:crypto';
import { raw, sql, type ClickHouseWriter } from '@framedeck/clickhouse';
import { renderWorldMapPng, WORLD } from '@framedeck/sender';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Tenant } from '../ingest/ingest-harness.js';
import { waitFor } from '../support/wait.js';
import {
  expectStoredExactly,
  ingest as ingestAs,
  sampleBatch,
  steadyLoad,
  storedEvents,
} from './support/cluster-load.js';
import { CLUSTER_API } from './support/cluster-env.js';
import {
  clusterScript,
  NODE_PORTS,
  nodeWriter,
  onEveryNode,
  pidOf,
  REPLICA_CATCH_UP,
  waitReplicasConverged,
} from './support/cluster-stack.js';
import { useClusterSuite } from './support/cluster-suite.js';

// The cluster topology end to end: every service twice behind the project's balancers
// (infra/local/run-services.mjs, as `FRAMEDECK_TOPOLOGY=cluster npm start` runs them), ClickHouse
// 2 shards × 2 replicas, three Kafka brokers. What must hold on one node must hold here, and
// one replica or broker killed with -9 under load loses and duplicates nothing.

const suite = useClusterSuite(1);
const clickhouse: ClickHouseWriter = suite.clickhouse;
let tenant: Tenant;
beforeAll(() => void (tenant = suite.tenants[0]!));

const SHARD_OF_NODE = [1, 1, 2, 2];

/** Rows of the project in one node's local events table (after it caught up with its shard). */
async function localEventCount(port: number, projectId: string): Promise<number> {
  const node = nodeWriter(port);
  try {
    await node.command(raw('SYSTEM SYNC REPLICA events_local'));
    const [row] = await node.rows<{ n: string }>(
      sql`SELECT count() AS n FROM events_local FINAL WHERE project_id = ${projectId}`,
    );
    return Number(row?.n ?? 0);
  } finally {
    await node.close();
  }
}

const ingest = (body: Buffer, idempotencyKey?: ReturnType<typeof randomUUID>) => ingestAs(tenant, body, idempotencyKey);

describe('cluster topology', () => {
  it('gives every replica the columns the migrations’ ALTERs added, though each ALTER ran on one replica per shard', async () => {
    const schemas = await onEveryNode((node) =>
      node.rows<{ table: string; columns: string[] }>(
        sql`SELECT table, arraySort(groupArray(concat(name, ' ', type))) AS columns FROM system.columns
             WHERE database = currentDatabase() AND endsWith(table, '_local') GROUP BY table ORDER BY table`,
      ),
    );
    for (const schema of schemas.slice(1)) expect(schema).toEqual(schemas[0]);
    // 015's ALTER … ADD COLUMN, on each of the four nodes.
    const buildStats = schemas[0]!.find((t) => t.table === 'rollup_build_stats_local');
    expect(buildStats?.columns.some((c) => c.startsWith('insert_mark '))).toBe(true);
  });

  it('spreads one project over both shards, each event once, and replicas agree', async () => {
    for (let i = 0; i < 10; i++) expect(await ingest(sampleBatch(50, 'spread'))).toBe(202);
    // A redelivered batch (same idempotency key, so the same event ids) adds nothing.
    const key = randomUUID();
    const body = sampleBatch(50, 'redelivered');
    expect(await ingest(body, key)).toBe(202);
    expect(await ingest(body, key)).toBe(202);

    await waitFor(async () => (await storedEvents(clickhouse, tenant.projectId)).distinct === 550, {
      timeoutMs: 120_000,
      what: '550 events in the Distributed table',
    });
    // Reads go to one replica per shard, and one still fetching its peer's parts answers fewer
    // rows (CI: 550 seen, then 446): the count is asserted once every replica caught up, polled
    // as in cluster-load.ts's expectStoredExactly.
    await waitReplicasConverged();
    await expect
      .poll(() => storedEvents(clickhouse, tenant.projectId), REPLICA_CATCH_UP)
      .toEqual({ rows: 550, distinct: 550 });

    const perNode = await Promise.all(NODE_PORTS.map((port) => localEventCount(port, tenant.projectId)));
    // Both replicas of a shard hold the same rows; the two shards split the project.
    expect(perNode[0]).toBe(perNode[1]);
    expect(perNode[2]).toBe(perNode[3]);
    expect(perNode[0]! + perNode[2]!).toBe(550);
    expect(Math.min(perNode[0]!, perNode[2]!)).toBeGreaterThan(100);
    expect(SHARD_OF_NODE).toEqual([1, 1, 2, 2]);
  });

  it('answers insights, heatmaps and funnels through the API balancer from every shard', async () => {
    const headers = { 'x-api-key': tenant.keys.read ?? tenant.keys.full! };
    const form = new FormData();
    form.set('file', new Blob([renderWorldMapPng(200)], { type: 'image/png' }), 'cluster_map.png');
    form.set('name', 'Cluster map');
    form.set('mapId', 'cluster_map');
    form.set('worldMinX', String(WORLD.minX));
    form.set('worldMinY', String(WORLD.minY));
    form.set('worldMaxX', String(WORLD.maxX));
    form.set('worldMaxY', String(WORLD.maxY));
    const upload = await fetch(`${CLUSTER_API}/api/v1/maps/upload`, {
      method: 'POST',
      headers: { 'x-api-key': tenant.keys.readWrite ?? tenant.keys.full!, 'x-project-id': tenant.projectId },
      body: form,
    });
    expect(upload.status).toBe(201);
    // The consumer feeds the rollups (which answer insights) right after it stored the events.
    const counts = async () => {
      const res = await fetch(
        `${CLUSTER_API}/api/v1/projects/${tenant.projectId}/insights?metric=count&groupBy=event_name&days=7`,
        { headers },
      );
      expect(res.status).toBe(200);
      const { data } = (await res.json()) as { data: { rows: { group: string; value: number }[] } };
      return Object.fromEntries(data.rows.map((r) => [r.group, r.value]));
    };
    await waitFor(async () => (await counts()).spread === 500 && (await counts()).redelivered === 50, {
      timeoutMs: 60_000,
      what: 'the insights to count 500 spread and 50 redelivered events',
    });
    expect(await counts()).toEqual({ spread: 500, redelivered: 50 });

    // Each overview, fed on each node from that node's cell view (032, 033), counts every event
    // once: the 5-unit Performance heatmap all 550, the 10-unit Events heatmaps each name's.
    for (const [view, total] of [
      ['cellSize=5', 550],
      ['cellSize=10&eventName=spread', 500],
      ['cellSize=10&eventName=redelivered', 50],
    ] as const) {
      await waitFor(
        async () => {
          const res = await fetch(
            `${CLUSTER_API}/api/v1/projects/${tenant.projectId}/heatmap?mapId=cluster_map&days=7&${view}`,
            { headers },
          );
          if (res.status !== 200) return false;
          const cells = ((await res.json()) as { data: { event_count: number }[] }).data;
          return cells.reduce((sum, c) => sum + c.event_count, 0) === total;
        },
        { timeoutMs: 60_000, what: `the heatmap (${view}) to count ${total} events` },
      );
    }

    // A funnel reads funnel_step_hours' bounds, then funnel_steps for the players they leave open,
    // both through the Distributed tables. A player's events here share their seconds (a tie,
    // which the bounds always leave open): both queries run, and each of the 7 players entered.
    const funnel = await fetch(
      `${CLUSTER_API}/api/v1/projects/${tenant.projectId}/funnels?steps=spread&steps=redelivered&windowSeconds=3600&days=7`,
      { headers },
    );
    expect(funnel.status).toBe(200);
    const { data } = (await funnel.json()) as { data: { steps: { count: number }[] } };
    expect(data.steps[0]!.count).toBe(7);
  });

  it('loses and duplicates nothing when a ClickHouse replica is killed with -9 under load', async () => {
    const { accepted, refusals } = await steadyLoad(tenant, 20_000, 'replica_killed', async () => {
      process.kill(pidOf('clickhouse-2'), 'SIGKILL');
    });
    // The gateway answers after Kafka: a ClickHouse replica's death never reaches the client.
    expect(refusals).toEqual([]);
    await clusterScript('up', 'clickhouse-2');
    await waitReplicasConverged();
    await expectStoredExactly(clickhouse, tenant, 'replica_killed', accepted);
    // The restarted replica catches up with its shard: it fetches what it missed, within the
    // poll (a part lost on it for good would keep the counts apart and fail here).
    const shardOneReplicas = () =>
      Promise.all(NODE_PORTS.slice(0, 2).map((port) => localEventCount(port, tenant.projectId)));
    await expect
      .poll(shardOneReplicas, REPLICA_CATCH_UP)
      .toSatisfy(([first, second]) => first! > 0 && second === first);
  }, 400_000);

  it('loses and duplicates nothing when a Kafka broker is killed with -9 under load', async () => {
    const { accepted, refusals } = await steadyLoad(tenant, 20_000, 'broker_killed', async () => {
      process.kill(pidOf('kafka-3'), 'SIGKILL');
    });
    // Refusals while partitions move to the other brokers are retryable 503s, never a 202 for a
    // batch that is not stored (the retries with the same key would otherwise add nothing).
    expect(refusals.every((status) => status === 503)).toBe(true);
    await clusterScript('up', 'kafka-3');
    await expectStoredExactly(clickhouse, tenant, 'broker_killed', accepted);
  }, 400_000);
});
