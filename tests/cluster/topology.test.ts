import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ClickHouseWriter, createClickHouseWriter, openConnection, raw, sql } from '@framedeck/clickhouse';
import { clickhouseSection, postgresSection } from '@framedeck/config';
import { createPool } from '@framedeck/postgres';
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
    `${CLUSTER_INGEST}/v1/events`,
  ).catch(() => ({ status: 0 }));
  return res.status;
}

/**
 * Sends one batch after another for `ms`, calling `during` half-way; returns how many events
 * were answered 202 (stored at least once, promised) and how many batches got anything else
 * (retryable refusals are allowed; they promise nothing).
 */
async function steadyLoad(ms: number, name: string, during: () => Promise<void>) {
  let accepted = 0;
  let refused = 0;
  const deadline = Date.now() + ms;
  const fault = new Promise<void>((resolve) => setTimeout(resolve, ms / 2)).then(during);
  while (Date.now() < deadline) {
    const status = await ingest(sampleBatch(20, name));
    if (status === 202) accepted += 20;
    else refused += 1;
  }
  await fault;
  return { accepted, refused };
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
    const insights = await fetch(
      `${CLUSTER_API}/api/v1/projects/${tenant.projectId}/insights?metric=count&groupBy=event_name&days=7`,
      { headers },
    );
    expect(insights.status).toBe(200);
    const { data } = (await insights.json()) as { data: { rows: { group: string; value: number }[]; total: number } };
    expect(Object.fromEntries(data.rows.map((r) => [r.group, r.value]))).toMatchObject({
      spread: 500,
      redelivered: 50,
    });

    await waitFor(
      async () => {
        const res = await fetch(
          `${CLUSTER_API}/api/v1/projects/${tenant.projectId}/heatmap?mapId=cluster_map&cellSize=5&days=7`,
          { headers },
        );
        if (res.status !== 200) return false;
        const cells = ((await res.json()) as { data: { eventCount?: number; events?: number }[] }).data;
        return cells.reduce((sum, c) => sum + Number(c.eventCount ?? c.events ?? 0), 0) === 550;
      },
      { timeoutMs: 60_000, what: 'the heatmap to count all 550 events' },
    );
  });

  it('loses and duplicates nothing when a ClickHouse replica is killed with -9 under load', async () => {
    const name = 'replica_killed';
    const { accepted } = await steadyLoad(20_000, name, async () => {
      process.kill(pidOf('clickhouse-2'), 'SIGKILL');
    });
    await clusterScript('up', 'clickhouse-2');
    const [row] = await waitFor(
      async () => {
        const rows = await clickhouse.rows<{ rows: string; distinct: string }>(
          sql`SELECT count() AS rows, uniqExact(event_id) AS distinct FROM events FINAL
               WHERE project_id = ${tenant.projectId} AND event_name = ${name}`,
        );
        return Number(rows[0]?.distinct) >= accepted ? rows : undefined;
      },
      { timeoutMs: 180_000, what: `the ${accepted} accepted events` },
    );
    expect(accepted).toBeGreaterThan(0);
    expect({ rows: Number(row!.rows), distinct: Number(row!.distinct) }).toEqual({
      rows: accepted,
      distinct: accepted,
    });
    // The restarted replica caught up with its shard.
    const [first, second] = await Promise.all([
      localEventCount(NODE_PORTS[0]!, tenant.projectId),
      localEventCount(NODE_PORTS[1]!, tenant.projectId),
    ]);
    expect(second).toBe(first);
  }, 400_000);

  it('loses and duplicates nothing when a Kafka broker is killed with -9 under load', async () => {
    const name = 'broker_killed';
    const { accepted } = await steadyLoad(20_000, name, async () => {
      process.kill(pidOf('kafka-3'), 'SIGKILL');
    });
    await clusterScript('up', 'kafka-3');
    const [row] = await waitFor(
      async () => {
        const rows = await clickhouse.rows<{ rows: string; distinct: string }>(
          sql`SELECT count() AS rows, uniqExact(event_id) AS distinct FROM events FINAL
               WHERE project_id = ${tenant.projectId} AND event_name = ${name}`,
        );
        return Number(rows[0]?.distinct) >= accepted ? rows : undefined;
      },
      { timeoutMs: 180_000, what: `the ${accepted} accepted events` },
    );
    expect(accepted).toBeGreaterThan(0);
    expect({ rows: Number(row!.rows), distinct: Number(row!.distinct) }).toEqual({
      rows: accepted,
      distinct: accepted,
    });
  }, 400_000);
});
