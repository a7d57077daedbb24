import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { bootstrapTenant, type PlanId } from '@framedeck/accounts';
import { eventIdFor, sql, type ClickHouseWriter, type SqlFragment } from '@framedeck/clickhouse';
import { encodeTelemetryBatch, type TelemetryEventInput } from '@framedeck/proto';
import type { SentBatch } from '@framedeck/sender';
import type { Pool } from '@framedeck/postgres';
import { startService, waitHealthy, type RunningService } from '../support/processes.js';
import { TEST_ENV } from '../support/config.js';
import { expect } from 'vitest';
import { waitFor } from '../support/wait.js';

/** Shared by the ingest integration tests: processes, a tenant, requests, and ClickHouse checks. */

export const INGEST_URL = `http://127.0.0.1:${TEST_ENV.FRAMEDECK_INGEST_PORT}`;
export const CONSUMER_HEALTH = `http://127.0.0.1:${TEST_ENV.FRAMEDECK_CONSUMER_HEALTH_PORT}`;

export async function startGateway(env: Record<string, string> = {}): Promise<RunningService> {
  const service = startService('ingest-gateway', env);
  await waitHealthy(
    `${env.FRAMEDECK_INGEST_PORT ? `http://127.0.0.1:${env.FRAMEDECK_INGEST_PORT}` : INGEST_URL}/healthz`,
    service,
  );
  return service;
}

export async function startConsumer(env: Record<string, string> = {}): Promise<RunningService> {
  // A short session timeout lets a replacement take over a crashed member's partitions fast.
  const service = startService('events-consumer', { FRAMEDECK_CONSUMER_SESSION_TIMEOUT_MS: '8000', ...env });
  await waitHealthy(`${CONSUMER_HEALTH}/healthz`, service);
  return service;
}

export type Tenant = Awaited<ReturnType<typeof bootstrapTenant>>;

export function newTenant(pool: Pool, plan: PlanId = 'pro'): Promise<Tenant> {
  return bootstrapTenant(pool, { plan });
}

export function event(fields: TelemetryEventInput = {}): TelemetryEventInput {
  return { eventName: 'test_event', sessionId: 'session-1', timestampUs: Date.now() * 1000, ...fields };
}

export function batchBody(events: TelemetryEventInput[]): Buffer {
  return Buffer.from(encodeTelemetryBatch(events));
}

export type IngestResponse = { status: number; body: string; headers: Headers; json: () => Record<string, unknown> };

/** POST /v1/events with the valid headers unless overridden (undefined removes one). */
export async function postEvents(
  body: Buffer | string,
  headers: Record<string, string | undefined>,
  url = INGEST_URL,
): Promise<IngestResponse> {
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries({
    'content-type': 'application/x-protobuf',
    'x-sdk-version': 'tests/1.0',
    ...headers,
  })) {
    if (v !== undefined) merged[k] = v;
  }
  const res = await fetch(`${url}/v1/events`, { method: 'POST', headers: merged, body });
  const text = await res.text();
  return { status: res.status, body: text, headers: res.headers, json: () => JSON.parse(text) };
}

/** Sends raw bytes on a socket (for framing errors fetch refuses to produce) and returns the reply. */
export function rawRequest(bytes: Buffer | string, port = Number(TEST_ENV.FRAMEDECK_INGEST_PORT)): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    socket.on('data', (d) => (reply += d.toString('latin1')));
    socket.on('end', () => resolve(reply));
    socket.on('close', () => resolve(reply));
    socket.on('error', reject);
    socket.setTimeout(20_000, () => socket.destroy(new Error(`no reply; got: ${reply}`)));
    socket.write(bytes);
  });
}

export function statusOf(rawReply: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(rawReply)?.[1] ?? 0);
}

export async function queryRows<T>(clickhouse: ClickHouseWriter, query: SqlFragment): Promise<T[]> {
  return clickhouse.rows<T>(query);
}

/** Event ids the consumer gives the events of acknowledged batches (see libs/clickhouse event-id). */
export function ledgerIds(batches: readonly SentBatch[]): Set<string> {
  const ids = new Set<string>();
  for (const b of batches) for (let i = 0; i < b.events; i++) ids.add(eventIdFor(b.batchId, i));
  return ids;
}

/**
 * Waits until the project's events, deduplicated (FINAL), are exactly the ledger: every
 * acknowledged event present once, nothing else.
 */
export async function expectExactlyLedger(
  clickhouse: ClickHouseWriter,
  projectId: string,
  ledger: Set<string>,
  timeoutMs = 90_000,
): Promise<void> {
  await waitFor(
    async () => {
      const [row] = await queryRows<{ n: string }>(
        clickhouse,
        sql`SELECT count() AS n FROM events FINAL WHERE project_id = ${projectId}`,
      );
      return Number(row?.n) >= ledger.size;
    },
    { timeoutMs, intervalMs: 500, what: `${ledger.size} events of project ${projectId}` },
  );
  const diff = await diffLedger(clickhouse, projectId, ledger);
  if (diff.missing || diff.duplicates || diff.unexpected) {
    throw new Error(
      `ledger mismatch: ${diff.missing} missing, ${diff.duplicates} duplicated, ${diff.unexpected} unexpected ` +
        `(ledger ${ledger.size}, rows ${diff.rows})`,
    );
  }
  await expectRollupsCountEachEventOnce(clickhouse, projectId, timeoutMs);
}

/** The rollups that hold each positioned event once: the 5-unit cells and the Events overviews (5 and 10 units, daily and weekly). */
const POSITIONED_ROLLUPS = [
  'heatmap_cells',
  'overview_5_events',
  'overview_5_events_weekly',
  'overview_10_events',
  'overview_10_events_weekly',
];

/**
 * Waits until every rollup (clickhouse/007) has counted the project's events, then requires
 * each to hold exactly the deduplicated events: a redelivered or retried batch rolled up
 * twice shows as a surplus here, one never rolled up as a shortfall.
 */
export async function expectRollupsCountEachEventOnce(
  clickhouse: ClickHouseWriter,
  projectId: string,
  timeoutMs = 30_000,
): Promise<void> {
  const counts = async () => {
    const [row] = await queryRows<Record<string, string>>(
      clickhouse,
      sql`SELECT
        (SELECT count() FROM events FINAL WHERE project_id = ${projectId}) AS events,
        (SELECT countIf(has_position = 1) FROM events FINAL WHERE project_id = ${projectId}) AS positioned,
        (SELECT countIf(has_position = 1 AND (fps > 0 OR frame_time_ms > 0)) FROM events FINAL
          WHERE project_id = ${projectId}) AS sampled,
        (SELECT sum(events) FROM rollup_daily_counts WHERE project_id = ${projectId}) AS daily_counts,
        (SELECT countMerge(events) FROM rollup_project_hours WHERE project_id = ${projectId}) AS project_hours,
        (SELECT countMerge(events) FROM rollup_project_days WHERE project_id = ${projectId}) AS project_days,
        (SELECT sum(events) FROM rollup_build_stats WHERE project_id = ${projectId}) AS build_stats,
        (SELECT sum(events) FROM rollup_heatmap_cells WHERE project_id = ${projectId}) AS heatmap_cells,
        (SELECT sum(events) FROM rollup_heatmap_overview_5 WHERE project_id = ${projectId}) AS overview_5,
        (SELECT sum(events) FROM rollup_heatmap_overview_5_weekly WHERE project_id = ${projectId}) AS overview_5_weekly,
        (SELECT sum(events) FROM rollup_heatmap_overview_5_events WHERE project_id = ${projectId}) AS overview_5_events,
        (SELECT sum(events) FROM rollup_heatmap_overview_5_events_weekly WHERE project_id = ${projectId})
          AS overview_5_events_weekly,
        (SELECT sum(events) FROM rollup_heatmap_overview_10_events WHERE project_id = ${projectId}) AS overview_10_events,
        (SELECT sum(events) FROM rollup_heatmap_overview_10_events_weekly WHERE project_id = ${projectId})
          AS overview_10_events_weekly`,
    );
    return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
  };
  // Views of one insert become visible one after another: wait for all of them.
  const caughtUp = (c: Record<string, number>) =>
    ['daily_counts', 'project_hours', 'project_days', 'build_stats'].every((k) => c[k]! >= c.events!) &&
    POSITIONED_ROLLUPS.every((k) => c[k]! >= c.positioned!) &&
    ['overview_5', 'overview_5_weekly'].every((k) => c[k]! >= c.sampled!);
  await waitFor(async () => caughtUp(await counts()), {
    timeoutMs,
    intervalMs: 250,
    what: `the rollups of project ${projectId}`,
  });
  const c = await counts();
  expect(c).toEqual({
    events: c.events,
    positioned: c.positioned,
    sampled: c.sampled,
    daily_counts: c.events,
    project_hours: c.events,
    project_days: c.events,
    build_stats: c.events,
    // Each positioned event with a frame sample once in the 5-unit Performance overview, by day and by week.
    overview_5: c.sampled,
    overview_5_weekly: c.sampled,
    ...Object.fromEntries(POSITIONED_ROLLUPS.map((k) => [k, c.positioned])),
  });
}

/** How the project's deduplicated (FINAL) rows compare with the ledger of acknowledged events. */
export type LedgerDiff = {
  /** ledger events present */
  stored: number;
  /** rows after FINAL */
  rows: number;
  missing: number;
  /** event ids seen more than once after FINAL */
  duplicates: number;
  /** rows whose event id is not in the ledger */
  unexpected: number;
};

export async function diffLedger(
  clickhouse: ClickHouseWriter,
  projectId: string,
  ledger: Set<string>,
): Promise<LedgerDiff> {
  const rows = await queryRows<{ id: string }>(
    clickhouse,
    sql`SELECT toString(event_id) AS id FROM events FINAL WHERE project_id = ${projectId}`,
  );
  const seen = new Set<string>();
  let duplicates = 0;
  let unexpected = 0;
  for (const { id } of rows) {
    if (seen.has(id)) duplicates++;
    seen.add(id);
    if (!ledger.has(id)) unexpected++;
  }
  let stored = 0;
  for (const id of ledger) if (seen.has(id)) stored++;
  return { stored, rows: rows.length, missing: ledger.size - stored, duplicates, unexpected };
}

export const uniqueProbeName = () => `ingest_probe_${randomUUID().replace(/-/g, '')}`;
