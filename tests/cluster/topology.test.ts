import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ClickHouseWriter, createClickHouseWriter, openConnection, raw, sql } from '@framedeck/clickhouse';
import { clickhouseSection, postgresSection } from '@framedeck/config';
import { createPool } from '@framedeck/postgres';
import { renderWorldMapPng, WORLD } from '@framedeck/sender';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchBody, event, newTenant, postEvents, type Tenant } from '../ingest/ingest-harness.js';
import { inheritedEnv, REPO_ROOT, STATE_DIR } from '../support/test-env.js';
import { waitFor } from '../support/wait.js';
import { CLUSTER_API, CLUSTER_ENV, CLUSTER_INGEST } from './support/cluster-env.js';

// The cluster topology end to end: every service twice behind the project's balancers
// (infra/local/run-services.mjs, as `FRAMEDECK_TOPOLOGY=cluster npm start` runs them), ClickHouse
// 2 shards × 2 replicas, three Kafka brokers. What must hold on one node must hold here, and
// one replica or broker killed with -9 under load loses and duplicates nothing.

const clickhouseConfig = clickhouseSection(CLUSTER_ENV);
const pool = createPool(postgresSection(CLUSTER_ENV));
const clickhouse: ClickHouseWriter = createClickHouseWriter(clickhouseConfig);
let services: ChildProcess;
let servicesOutput = '';
let tenant: Tenant;

/** The four ClickHouse nodes' own HTTP ports (cluster.sh: the balancer's port + 1 … + 4). */
const NODE_PORTS = [1, 2, 3, 4].map((n) => Number(new URL(clickhouseConfig.url).port) + n);
const SHARD_OF_NODE = [1, 1, 2, 2];

function nodeWriter(port: number): ClickHouseWriter {
  return new ClickHouseWriter(
    openConnection({
      url: `http://127.0.0.1:${port}`,
      user: clickhouseConfig.admin.user,
      password: clickhouseConfig.admin.password,
      database: clickhouseConfig.database,
      requestTimeoutMs: 120_000,
    }),
  );
}

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

async function storedEvents(projectId: string): Promise<{ rows: number; distinct: number }> {
  const [row] = await clickhouse.rows<{ rows: string; distinct: string }>(
    sql`SELECT count() AS rows, uniqExact(event_id) AS distinct FROM events FINAL WHERE project_id = ${projectId}`,
  );
  return { rows: Number(row?.rows ?? 0), distinct: Number(row?.distinct ?? 0) };
}

/**
 * Waits until every node replicates every table of the test database with nothing queued. A
 * replica that was restarted serves its shard's reads through the Distributed tables before it
 * caught up (its old ZooKeeper session keeps it read-only for up to the session timeout, 30 s).
 */
async function waitReplicasConverged(): Promise<void> {
  await waitFor(
    async () => {
      for (const port of NODE_PORTS) {
        const node = nodeWriter(port);
        try {
          const [row] = await node.rows<{ lagging: string }>(
            sql`SELECT count() AS lagging FROM system.replicas
                 WHERE database = currentDatabase() AND (is_readonly OR queue_size > 0 OR is_session_expired)`,
          );
          if (Number(row?.lagging) > 0) return false;
        } finally {
          await node.close();
        }
      }
      return true;
    },
    { timeoutMs: 180_000, intervalMs: 1_000, what: 'every replica to catch up' },
  );
}

const BASE_TIME_US = Date.now() * 1000;

/** One batch of `size` events, each with a distinct id once stored (batch id + index). */
function sampleBatch(size: number, name: string): Buffer {
  return batchBody(
    Array.from({ length: size }, (_, i) =>
      event({
        eventName: name,
        timestampUs: BASE_TIME_US + i,
        playerId: `player-${i % 7}`,
        mapId: 'cluster_map',
        position: { x: (i % 20) * 5, y: (i % 10) * 5, z: 1 },
        fps: 60,
        frameTimeMs: 16.6,
      }),
    ),
  );
}

async function ingest(body: Buffer, idempotencyKey = randomUUID()): Promise<number> {
  const res = await postEvents(
    body,
    { 'x-api-key': tenant.keys.ingest!, 'idempotency-key': idempotencyKey },
    CLUSTER_INGEST,
  ).catch(() => ({ status: 0 }));
  return res.status;
}

/**
 * A client under a fault: sends one batch after another for `ms`, calling `during` half-way.
 * A batch answered anything but 202 is sent again with the same Idempotency-Key (so the same
 * event ids), as the SDKs do, until it is accepted. Returns the events accepted and every
 * non-202 answer seen (0: the connection failed).
 */
async function steadyLoad(ms: number, name: string, during: () => Promise<void>) {
  let accepted = 0;
  const refusals: number[] = [];
  const deadline = Date.now() + ms;
  const fault = new Promise<void>((resolve) => setTimeout(resolve, ms / 2)).then(during);
  while (Date.now() < deadline) {
    const body = sampleBatch(20, name);
    const key = randomUUID();
    for (let status = await ingest(body, key); status !== 202; status = await ingest(body, key)) {
      refusals.push(status);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    accepted += 20;
  }
  await fault;
  return { accepted, refusals };
}

/**
 * Waits until the `name` events number at least `accepted`, then checks there are exactly that
 * many, once each, and that the rollups count them once (`rollups: 'at-most-once'`: no more than
 * once, the rollup writer's guarantee when a server dies in the middle of an insert, between two
 * of its views; libs/clickhouse rollups.writer.ts).
 */
async function expectStoredExactly(
  name: string,
  accepted: number,
  rollups: 'exactly-once' | 'at-most-once' = 'exactly-once',
): Promise<void> {
  const count = async () => {
    const [row] = await clickhouse.rows<{ rows: string; distinct: string }>(
      sql`SELECT count() AS rows, uniqExact(event_id) AS distinct FROM events FINAL
           WHERE project_id = ${tenant.projectId} AND event_name = ${name}`,
    );
    return { rows: Number(row?.rows ?? 0), distinct: Number(row?.distinct ?? 0) };
  };
  await waitFor(async () => (await count()).distinct >= accepted, {
    timeoutMs: 180_000,
    what: `the ${accepted} accepted ${name} events`,
  });
  expect(accepted).toBeGreaterThan(0);
  expect(await count()).toEqual({ rows: accepted, distinct: accepted });
  // The rollups count each of them once too (a batch's rollup rows and ledger row share a shard).
  // A replica that was down serves its shard's reads again before it fetched the parts written
  // meanwhile: wait for the shards to converge.
  const rolledUp = async () => {
    const [row] = await clickhouse.rows<{ n: string }>(
      sql`SELECT countMerge(events) AS n FROM rollup_heatmap_cells
           WHERE project_id = ${tenant.projectId} AND event_name = ${name}`,
    );
    return Number(row?.n ?? 0);
  };
  await waitReplicasConverged();
  if (rollups === 'at-most-once') {
    expect(await rolledUp()).toBeLessThanOrEqual(accepted);
    return;
  }
  await waitFor(async () => (await rolledUp()) >= accepted, {
    timeoutMs: 180_000,
    what: `the rollups to count the ${accepted} ${name} events`,
  });
  expect(await rolledUp()).toBe(accepted);
}

function pidOf(component: string): number {
  return Number(readFileSync(`${STATE_DIR}/cluster/run/${component}.pid`, 'utf8').trim());
}

function clusterScript(...args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [`${REPO_ROOT}infra/local/cluster.sh`, ...args], { stdio: 'ignore' });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cluster.sh ${args.join(' ')}: ${code}`))));
  });
}

beforeAll(async () => {
  await waitReplicasConverged();
  tenant = await newTenant(pool, 'pro');
  services = spawn(process.execPath, [`${REPO_ROOT}infra/local/run-services.mjs`], {
    env: inheritedEnv(CLUSTER_ENV),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  services.stdout!.on('data', (d) => (servicesOutput += d));
  services.stderr!.on('data', (d) => (servicesOutput += d));
  await waitFor(
    () => {
      if (services.exitCode !== null) throw new Error(`run-services exited:\n${servicesOutput}`);
      return servicesOutput.includes('FrameDeck is running.');
    },
    { timeoutMs: 240_000, what: `the cluster's services to start:\n${servicesOutput}` },
  );
}, 300_000);

afterAll(async () => {
  if (services && services.exitCode === null) {
    services.kill('SIGTERM');
    await new Promise((resolve) => services.once('exit', resolve));
  }
  await Promise.allSettled([pool.end(), clickhouse.close()]);
}, 120_000);

describe('cluster topology', () => {
  it('spreads one project over both shards, each event once, and replicas agree', async () => {
    for (let i = 0; i < 10; i++) expect(await ingest(sampleBatch(50, 'spread'))).toBe(202);
    // A redelivered batch (same idempotency key, so the same event ids) adds nothing.
    const key = randomUUID();
    const body = sampleBatch(50, 'redelivered');
    expect(await ingest(body, key)).toBe(202);
    expect(await ingest(body, key)).toBe(202);

    await waitFor(async () => (await storedEvents(tenant.projectId)).distinct === 550, {
      timeoutMs: 120_000,
      what: '550 events in the Distributed table',
    });
    expect(await storedEvents(tenant.projectId)).toEqual({ rows: 550, distinct: 550 });

    const perNode = await Promise.all(NODE_PORTS.map((port) => localEventCount(port, tenant.projectId)));
    // Both replicas of a shard hold the same rows; the two shards split the project.
    expect(perNode[0]).toBe(perNode[1]);
    expect(perNode[2]).toBe(perNode[3]);
    expect(perNode[0]! + perNode[2]!).toBe(550);
    expect(Math.min(perNode[0]!, perNode[2]!)).toBeGreaterThan(100);
    expect(SHARD_OF_NODE).toEqual([1, 1, 2, 2]);
  });

  it('answers insights and heatmaps through the API balancer from every shard', async () => {
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

    await waitFor(
      async () => {
        const res = await fetch(
          `${CLUSTER_API}/api/v1/projects/${tenant.projectId}/heatmap?mapId=cluster_map&cellSize=5&days=7`,
          { headers },
        );
        if (res.status !== 200) return false;
        const cells = ((await res.json()) as { data: { event_count: number }[] }).data;
        return cells.reduce((sum, c) => sum + c.event_count, 0) === 550;
      },
      { timeoutMs: 60_000, what: 'the heatmap to count all 550 events' },
    );
  });

  it('loses and duplicates nothing when a ClickHouse replica is killed with -9 under load', async () => {
    const { accepted, refusals } = await steadyLoad(20_000, 'replica_killed', async () => {
      process.kill(pidOf('clickhouse-2'), 'SIGKILL');
    });
    // The gateway answers after Kafka: a ClickHouse replica's death never reaches the client.
    expect(refusals).toEqual([]);
    await clusterScript('up', 'clickhouse-2');
    await waitReplicasConverged();
    await expectStoredExactly('replica_killed', accepted, 'at-most-once');
    // The restarted replica caught up with its shard.
    const [first, second] = await Promise.all([
      localEventCount(NODE_PORTS[0]!, tenant.projectId),
      localEventCount(NODE_PORTS[1]!, tenant.projectId),
    ]);
    expect(second).toBe(first);
  }, 400_000);

  it('loses and duplicates nothing when a Kafka broker is killed with -9 under load', async () => {
    const { accepted, refusals } = await steadyLoad(20_000, 'broker_killed', async () => {
      process.kill(pidOf('kafka-3'), 'SIGKILL');
    });
    // Refusals while partitions move to the other brokers are retryable 503s, never a 202 for a
    // batch that is not stored (the retries with the same key would otherwise add nothing).
    expect(refusals.every((status) => status === 503)).toBe(true);
    await clusterScript('up', 'kafka-3');
    await expectStoredExactly('broker_killed', accepted);
  }, 400_000);
});
