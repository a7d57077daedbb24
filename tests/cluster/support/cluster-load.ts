import { randomUUID } from 'node:crypto';
import { sql, type ClickHouseReader, type ClickHouseWriter } from '@framedeck/clickhouse';
import { expect } from 'vitest';
import { batchBody, event, postEvents, type Tenant } from '../../ingest/ingest-harness.js';
import { waitFor } from '../../support/wait.js';
import { CLUSTER_INGEST } from './cluster-env.js';
import { REPLICA_CATCH_UP, waitReplicasConverged } from './cluster-stack.js';

// An ingest client under a fault, and the check that what it was told was accepted is stored
// exactly once: shared by the cluster tests.

const BASE_TIME_US = Date.now() * 1000;

/** One batch of `size` events, each with a distinct id once stored (batch id + index). */
export function sampleBatch(size: number, name: string, playerOf = (i: number) => `player-${i % 7}`): Buffer {
  return batchBody(
    Array.from({ length: size }, (_, i) =>
      event({
        eventName: name,
        timestampUs: BASE_TIME_US + i,
        playerId: playerOf(i),
        mapId: 'cluster_map',
        position: { x: (i % 20) * 5, y: (i % 10) * 5, z: 1 },
        fps: 60,
        frameTimeMs: 16.6,
      }),
    ),
  );
}

/** POST /v1/events through the ingest balancer; 0 when the connection failed. */
export async function ingest(tenant: Tenant, body: Buffer, idempotencyKey = randomUUID()): Promise<number> {
  const res = await postEvents(
    body,
    { 'x-api-key': tenant.keys.ingest!, 'idempotency-key': idempotencyKey },
    CLUSTER_INGEST,
  ).catch(() => ({ status: 0 }));
  return res.status;
}

/**
 * A client under a fault: sends one batch after another for at least `ms`, calling `during`
 * half-way, and goes on until `during` is over. A batch answered anything but 202 is sent again
 * with the same Idempotency-Key (so the same event ids), as the SDKs do, until it is accepted.
 * Returns the events accepted and every non-202 answer seen (0: the connection failed).
 */
export async function steadyLoad(tenant: Tenant, ms: number, name: string, during: () => Promise<void>) {
  let accepted = 0;
  const refusals: number[] = [];
  const deadline = Date.now() + ms;
  let faultOver = false;
  const fault = new Promise<void>((resolve) => setTimeout(resolve, ms / 2))
    .then(during)
    .finally(() => (faultOver = true));
  fault.catch(() => undefined); // awaited below; the loop must not see an unhandled rejection meanwhile
  while (Date.now() < deadline || !faultOver) {
    const body = sampleBatch(20, name);
    const key = randomUUID();
    for (let status = await ingest(tenant, body, key); status !== 202; status = await ingest(tenant, body, key)) {
      refusals.push(status);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    accepted += 20;
  }
  await fault;
  return { accepted, refusals };
}

/**
 * The project's events (those named `name`, when given) as the Distributed table answers: rows
 * after FINAL, and distinct event ids. Equal when nothing is stored twice on one shard.
 */
export async function storedEvents(
  clickhouse: ClickHouseReader,
  projectId: string,
  name?: string,
): Promise<{ rows: number; distinct: number }> {
  const named = name === undefined ? sql`` : sql` AND event_name = ${name}`;
  const [row] = await clickhouse.rows<{ rows: string; distinct: string }>(
    sql`SELECT count() AS rows, uniqExact(event_id) AS distinct FROM events FINAL WHERE project_id = ${projectId}${named}`,
  );
  return { rows: Number(row?.rows ?? 0), distinct: Number(row?.distinct ?? 0) };
}

/**
 * Waits until the `name` events number at least `accepted`, then checks there are exactly that
 * many, once each, and that the rollups count them once (the consumer's ledger and the replicas'
 * insert deduplication: libs/clickhouse rollups.writer.ts, clickhouse/015).
 */
export async function expectStoredExactly(
  clickhouse: ClickHouseWriter,
  tenant: Tenant,
  name: string,
  accepted: number,
): Promise<void> {
  const count = () => storedEvents(clickhouse, tenant.projectId, name);
  await waitFor(async () => (await count()).distinct >= accepted, {
    timeoutMs: 180_000,
    what: `the ${accepted} accepted ${name} events`,
  });
  expect(accepted).toBeGreaterThan(0);
  // Reads go to one replica per shard: one still fetching the other's latest parts answers
  // fewer rows (measured in CI: 12,120 seen, then 11,860 from a lagging replica). Once every
  // replica has caught up the count is the shard's own.
  await waitReplicasConverged();
  // Polled, not read once: CI once saw a restarted replica short of rows with every queue empty
  // (docs/deployment.md). A duplicate never polls away: FINAL dedups within a shard, and an event
  // on both shards stays counted twice.
  await expect.poll(count, REPLICA_CATCH_UP).toEqual({ rows: accepted, distinct: accepted });
  // The rollups count each of them once too (a batch's rollup rows and ledger row share a shard),
  // read likewise once every replica caught up.
  // rollup_daily_counts: fed straight from the consumer's rollup insert, with the same
  // once-per-batch ledger as every rollup (clickhouse/007_rollups.sql).
  const rolledUp = async () => {
    const [row] = await clickhouse.rows<{ n: string }>(
      sql`SELECT sum(events) AS n FROM rollup_daily_counts
           WHERE project_id = ${tenant.projectId} AND event_name = ${name}`,
    );
    return Number(row?.n ?? 0);
  };
  await waitFor(async () => (await rolledUp()) >= accepted, {
    timeoutMs: 180_000,
    what: `the rollups to count the ${accepted} ${name} events`,
  });
  await waitReplicasConverged();
  await expect.poll(rolledUp, REPLICA_CATCH_UP).toBe(accepted);
}
