import { randomUUID } from 'node:crypto';
import { AssignerProtocol } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, createProjectWithKeys, type BootstrapResult } from '@framedeck/accounts';
import { createClickHouseWriter, sql, type ClickHouseWriter } from '@framedeck/clickhouse';
import { clickhouseSection, kafkaSection, postgresSection } from '@framedeck/config';
import { createKafka } from '@framedeck/kafka';
import { createLogger } from '@framedeck/logging';
import { createPool, type Pool } from '@framedeck/postgres';
import { batchBody, diffLedger, event, ledgerIds, postEvents, queryRows } from '../ingest/ingest-harness.js';
import type { RunningService } from '../support/processes.js';
import { waitFor } from '../support/wait.js';
import { formatFaultTable, writeFaultReport, type FaultRow } from './support/fault-report.js';
import { FaultServices } from './support/fault-services.js';
import { FAULT_PORTS, FaultStack, type Component } from './support/fault-stack.js';
import { SteadyLoad } from './support/steady-load.js';

// Faults under load: while simulated senders post at a steady rate, one component at a time
// is SIGKILLed and restarted. Afterwards every event the gateway acknowledged (202) is in
// ClickHouse exactly once after deduplication (FINAL), and nothing else is.
// Everything runs on a private stack (support/fault-stack.ts): the shared Kafka, ClickHouse,
// Postgres and Redis are never touched.
//
// Part of `npm test` (about two minutes); `npm run test:reliability` runs the same faults.
// The table is printed and written to artifacts/reliability/faults.json.
// A fault run: load, a kill, a restart (Kafka's JVM takes a while on a busy machine), the ledger.
const FAULT_TIMEOUT_MS = 240_000;

let stack: FaultStack;
let services: FaultServices;
let pool: Pool;
let clickhouse: ClickHouseWriter;
const rows: FaultRow[] = [];

beforeAll(async () => {
  stack = await FaultStack.start();
  pool = createPool(postgresSection(stack.env));
  clickhouse = createClickHouseWriter(clickhouseSection(stack.env));
  services = new FaultServices(stack);
  await Promise.all([services.start('gateway'), services.start('consumer'), services.start('api')]);
}, 300_000);

afterAll(async () => {
  if (rows.length) {
    console.log(`\nFaults under load\n${formatFaultTable(rows)}\n(written to ${writeFaultReport(rows)})\n`);
  }
  // Every component the tests killed is back (infra/local/status.sh on this stack).
  if (stack) console.log(await stack.status().catch((error: Error) => `status.sh failed: ${error.message}`));
  await services?.stopAll();
  await Promise.allSettled([pool?.end(), clickhouse?.close()]);
  await stack?.stop();
}, 120_000);

const INGEST_URL = `http://127.0.0.1:${FAULT_PORTS.ingest}`;
const API_URL = `http://127.0.0.1:${FAULT_PORTS.api}/api`;

type FaultContext = { tenant: BootstrapResult; load: SteadyLoad; notes: string[] };
type Injection = { killedAt: number };

/**
 * Runs one fault: a fresh tenant, steady load, `inject` (kill + checks while down + restart),
 * a probe that must become visible, a little more load, then the ledger check.
 */
async function underLoad(fault: string, inject: (ctx: FaultContext) => Promise<Injection>): Promise<FaultRow> {
  const tenant = await bootstrapTenant(pool, { plan: 'pro' });
  // 2 senders x 1 body of 25 events every 100 ms: ~500 events/s, bounded in count and time.
  const load = new SteadyLoad({
    ingestUrl: INGEST_URL,
    apiKey: tenant.keys.ingest!,
    senders: 2,
    intervalMs: 100,
    eventsPerBody: 25,
    maxBodies: 3_000,
    maxDurationMs: 150_000,
  }).start();
  const notes: string[] = [];
  try {
    await waitFor(() => load.snapshot.acked.length >= 20, { timeoutMs: 30_000, what: 'the load to be acknowledged' });
    const { killedAt } = await inject({ tenant, load, notes });

    // Recovered = an event sent now goes all the way through.
    const probeName = `reliability_probe_${randomUUID().replace(/-/g, '')}`;
    await load.post([{ eventName: probeName, sessionId: 'probe', timestampUs: Date.now() * 1000 }]);
    await waitFor(
      async () => {
        const [row] = await queryRows<{ n: string }>(
          clickhouse,
          sql`SELECT count() AS n FROM events WHERE project_id = ${tenant.projectId} AND event_name = ${probeName}`,
        );
        return Number(row?.n) > 0;
      },
      { timeoutMs: 120_000, intervalMs: 250, what: `the probe after the ${fault} fault to be stored` },
    );
    const recoveryMs = Date.now() - killedAt;
    const acksAtRecovery = load.snapshot.acked.length;
    await waitFor(() => load.snapshot.acked.length >= acksAtRecovery + 20, {
      timeoutMs: 30_000,
      what: 'more load after the recovery',
    });
    const result = await load.stop();

    const ledger = ledgerIds(result.acked);
    await waitFor(async () => (await diffLedger(clickhouse, tenant.projectId, ledger)).missing === 0, {
      timeoutMs: 90_000,
      intervalMs: 500,
      what: `all ${ledger.size} acknowledged events of the ${fault} run to be stored`,
    }).catch(() => undefined); // the diff below reports what is missing
    const diff = await diffLedger(clickhouse, tenant.projectId, ledger);
    const [raw] = await queryRows<{ n: string }>(
      clickhouse,
      sql`SELECT count() AS n FROM events WHERE project_id = ${tenant.projectId}`,
    );
    if (result.gaveUp.length)
      notes.push(`${result.gaveUp.length} bodies ran out of attempts: ${result.gaveUp[0]!.error}`);
    const row: FaultRow = {
      fault,
      eventsSent: result.sentEvents,
      acknowledged: result.ackedEvents,
      stored: diff.stored,
      lost: diff.missing,
      duplicatesAfterDedup: diff.duplicates,
      unexpected: diff.unexpected,
      redeliveredRows: Number(raw?.n) - diff.rows,
      recoveryMs,
      retries: result.retriesByStatus,
      notes,
    };
    rows.push(row);
    expect(ledger.size).toBe(result.ackedEvents);
    expect(result.gaveUp).toEqual([]);
    expect({ lost: row.lost, duplicatesAfterDedup: row.duplicatesAfterDedup, unexpected: row.unexpected }).toEqual({
      lost: 0,
      duplicatesAfterDedup: 0,
      unexpected: 0,
    });
    return row;
  } finally {
    await load.stop(5_000).catch(() => undefined);
  }
}

/** SIGKILL a stack component, keep it down `downMs` (running `whileDown`), restart it. */
async function killComponent(
  component: Component,
  downMs: number,
  whileDown: () => Promise<void> = async () => undefined,
): Promise<Injection & { restartedAt: number }> {
  const killedAt = Date.now();
  await stack.kill(component);
  const until = killedAt + downMs;
  await whileDown();
  while (Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  const restartedAt = Date.now();
  await stack.restart(component);
  return { killedAt, restartedAt };
}

async function restartKilledService(name: 'gateway' | 'consumer', downMs: number): Promise<Injection> {
  const killedAt = Date.now();
  await services.kill(name);
  await new Promise((r) => setTimeout(r, downMs));
  await services.start(name);
  return { killedAt };
}

async function apiGet(path: string, key: string) {
  const res = await fetch(`${API_URL}${path}`, { headers: { 'x-api-key': key } });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', text };
}

/**
 * Runs a fault test, then brings every component and service back whatever happened; a
 * failure of the restore never hides the test's own failure, and a failure shows what the
 * services said last.
 */
async function withRestore(test: () => Promise<void>): Promise<void> {
  let failure: unknown;
  try {
    await test();
  } catch (error) {
    failure = error;
    console.error(`fault test failed; last service output:\n${services.outputTails()}`);
  }
  try {
    await restoreAll();
  } catch (error) {
    if (!failure) throw error;
    console.error('restoring the fault stack after that failure failed too:', error);
  }
  if (failure) throw failure;
}

/** After each fault: every component and service is back, whatever the test did. */
async function restoreAll(): Promise<void> {
  for (const component of ['postgres', 'redis', 'clickhouse', 'kafka'] as const) {
    if (!(await stack.isUp(component))) await stack.restart(component);
  }
  await services.ensureRunning();
}

describe('faults under load: every acknowledged event stored exactly once after dedup', () => {
  it(
    'consumer SIGKILLed and restarted',
    async () => {
      await withRestore(async () => {
        await underLoad('consumer', () => restartKilledService('consumer', 2_000));
      });
    },
    FAULT_TIMEOUT_MS,
  );

  it(
    'second consumer joins the group mid-stream, then the first is SIGKILLed (rebalance)',
    async () => {
      const kafka = createKafka(kafkaSection(stack.env), createLogger('reliability', 'warn'), '-observer');
      const admin = kafka.admin();
      await admin.connect();
      let second: RunningService | undefined;
      await withRestore(async () => {
        try {
          await underLoad('consumer rebalance', async ({ notes }) => {
            second = await services.startExtraConsumer();
            // Both members hold partitions: the group shared the topic's partitions between them.
            const shares = await waitFor(
              async () => {
                const { groups } = await admin.describeGroups([stack.env.FRAMEDECK_KAFKA_CONSUMER_GROUP!]);
                const members = groups[0]?.members ?? [];
                const counts = members.map((m) => {
                  const assignment = AssignerProtocol.MemberAssignment.decode(m.memberAssignment);
                  return Object.values(assignment?.assignment ?? {}).reduce((n, p) => n + p.length, 0);
                });
                return counts.length === 2 && counts.every((n) => n > 0) && counts;
              },
              { timeoutMs: 60_000, intervalMs: 500, what: 'two consumers sharing the partitions' },
            );
            notes.push(`partitions per member after the join: ${shares.join(' + ')}`);
            await new Promise((r) => setTimeout(r, 2_000)); // both consume for a while
            const killedAt = Date.now();
            await services.kill('consumer');
            return { killedAt };
          });
          // The survivor now holds every partition.
          const { groups } = await admin.describeGroups([stack.env.FRAMEDECK_KAFKA_CONSUMER_GROUP!]);
          expect(groups[0]?.members).toHaveLength(1);
        } finally {
          await second?.stop();
          await admin.disconnect();
        }
      });
    },
    FAULT_TIMEOUT_MS,
  );

  it(
    'gateway SIGKILLed and restarted (senders retry with the same Idempotency-Key)',
    async () => {
      await withRestore(async () => {
        await underLoad('gateway', () => restartKilledService('gateway', 2_000));
      });
    },
    FAULT_TIMEOUT_MS,
  );

  it(
    'Redis SIGKILLed and restarted (limits fail open; nothing refused, nothing lost)',
    async () => {
      await withRestore(async () => {
        await underLoad('redis', async ({ tenant, load, notes }) => {
          let acksWhileDown = 0;
          let apiWhileDown = 0;
          const injection = await killComponent('redis', 4_000, async () => {
            const acks = load.snapshot.acked.length;
            await waitFor(() => load.snapshot.acked.length >= acks + 10, {
              timeoutMs: 10_000,
              what: 'acknowledgements while Redis is down',
            });
            acksWhileDown = load.snapshot.acked.length - acks;
            apiWhileDown = (await apiGet(`/v1/projects/${tenant.projectId}/status`, tenant.keys.read!)).status;
          });
          notes.push(`while down: gateway kept acknowledging (${acksWhileDown}+ bodies), API answered ${apiWhileDown}`);
          expect(apiWhileDown).toBe(200);
          return injection;
        });
      });
    },
    FAULT_TIMEOUT_MS,
  );

  it(
    'Postgres SIGKILLed and restarted (key lookups 503, senders retry)',
    async () => {
      await withRestore(async () => {
        await underLoad('postgres', async ({ notes, load }) => {
          const injection = await killComponent('postgres', 5_000);
          notes.push(`retries so far: ${JSON.stringify(load.snapshot.retriesByStatus)}`);
          return injection;
        });
        const last = rows.at(-1)!;
        expect(last.retries['503'] ?? 0).toBeGreaterThan(0); // the outage was felt, not cached away
      });
    },
    FAULT_TIMEOUT_MS,
  );

  it(
    'ClickHouse SIGKILLed and restarted: the API answers 503 problem+json meanwhile, then recovers',
    async () => {
      const api = () => services.get('api');
      const apiPid = api().child.pid;
      await withRestore(async () => {
        await underLoad('clickhouse', async ({ tenant, notes }) => {
          const insights = `/v1/projects/${tenant.projectId}/insights?metric=count&groupBy=day`;
          expect((await apiGet(insights, tenant.keys.read!)).status).toBe(200);
          const injection = await killComponent('clickhouse', 4_000, async () => {
            const down = await apiGet(insights, tenant.keys.read!);
            expect(down.status).toBe(503);
            expect(down.type).toContain('application/problem+json');
            expect(JSON.parse(down.text)).toMatchObject({ status: 503, retryable: true, success: false });
          });
          const recovered = await waitFor(
            async () => {
              const res = await apiGet(insights, tenant.keys.read!);
              return res.status === 200 && res;
            },
            { timeoutMs: 30_000, what: 'the API to answer 200 again' },
          );
          notes.push(
            `API: 503 problem+json while down, 200 ${((Date.now() - injection.restartedAt) / 1000).toFixed(1)} s after the restart began, same process`,
          );
          expect(JSON.parse(recovered.text).success).toBe(true);
          return injection;
        });
        // The consumer felt it too: its inserts failed and were retried.
        expect(services.get('consumer').output()).toContain('insert failed; retrying');
        expect(api().child.pid).toBe(apiPid);
        expect(api().child.exitCode).toBeNull();
      });
    },
    FAULT_TIMEOUT_MS,
  );

  it(
    'Kafka SIGKILLed and restarted: the gateway answers 503 (never 202) while it is down',
    async () => {
      await withRestore(async () => {
        await underLoad('kafka', async ({ tenant, load, notes }) => {
          // NOTE: a body refused with 503 may still land once Kafka is back (the producer's own
          // retry can outlive the gateway's timeout); SDKs retry it with the same Idempotency-Key
          // and the copies collapse. These direct requests are never retried, so they use a
          // project of their own and stay out of the ledger's project.
          const probeProject = await createProjectWithKeys(pool, { tenantId: tenant.tenantId, name: 'Kafka probes' });
          const statuses: number[] = [];
          const injection = await killComponent('kafka', 8_000, async () => {
            const until = Date.now() + 6_000;
            while (Date.now() < until) {
              const started = Date.now();
              const res = await postEvents(
                batchBody([event({ eventName: 'kafka_down_probe' })]),
                { 'x-api-key': probeProject.keys.ingest! },
                INGEST_URL,
              );
              statuses.push(res.status);
              expect(res.status, res.body).toBe(503);
              expect(Object.keys(res.json())).toEqual(['error']);
              expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
              expect(Date.now() - started).toBeLessThan(10_000); // bounded by the publish timeout
            }
          });
          // No body of the steady load was acknowledged while the broker was down (a 202 within
          // the first second may carry an acknowledgement Kafka gave just before the kill).
          const ackedWhileDown = load.snapshot.acked.filter(
            (a) => a.ackedAt > injection.killedAt + 1_000 && a.ackedAt < injection.restartedAt,
          );
          expect(ackedWhileDown).toEqual([]);
          notes.push(
            `while down: ${statuses.length} direct requests, all 503 {"error"} with Retry-After; no 202 to the senders`,
          );
          return injection;
        });
      });
    },
    FAULT_TIMEOUT_MS,
  );
});
