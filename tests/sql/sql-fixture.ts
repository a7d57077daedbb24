import { randomUUID } from 'node:crypto';
import { raw, sql, type ClickHouseWriter } from '@framedeck/clickhouse';
import { ProjectDatabases } from '@framedeck/sql-sandbox';
import { testConfig } from '../support/stack.js';
import { toRow, type FixtureEvent } from '../analytics/event-fixtures.js';

/**
 * Two projects with known, distinct rows, inserted straight into the shared events table.
 * "ours" is small enough to check every number by hand (see the expectations in the tests);
 * "theirs" carries markers (secret_b_…) that must never appear in anything "ours" receives.
 */
export type SqlFixture = { ours: string; theirs: string };

type Extra = { attributes?: Record<string, string>; metrics?: Record<string, number>; eventId?: string };

/** The first event is inserted twice with the same id (a Kafka redelivery); FINAL keeps one. */
const DUPLICATED_EVENT_ID = randomUUID();

const D0 = '2026-03-10';
const D1 = '2026-03-11';
const at = (day: string, time: string) => new Date(`${day}T${time}:00Z`);

/** Our project: 8 events by 3 players in 4 sessions over two days (table in README of tests). */
function ourEvents(projectId: string): [FixtureEvent, Extra][] {
  const e = (
    playerId: string,
    sessionId: string,
    eventName: string,
    when: Date,
    mapId: string,
    platform: string,
    fps: number,
    extra: Extra = {},
  ): [FixtureEvent, Extra] => [{ projectId, playerId, sessionId, eventName, at: when, mapId, platform, fps }, extra];
  return [
    e('p1', 's1', 'start', at(D0, '10:00'), 'forest', 'pc', 60, {
      attributes: { weapon: 'sword' },
      metrics: { ping: 20 },
      eventId: DUPLICATED_EVENT_ID,
    }),
    e('p1', 's1', 'level_up', at(D0, '10:10'), 'forest', 'pc', 55, {
      attributes: { weapon: 'sword', mode: 'hard' },
      metrics: { ping: 30 },
    }),
    e('p1', 's1', 'finish', at(D0, '10:20'), 'forest', 'pc', 50),
    e('p1', 's4', 'start', at(D1, '09:00'), 'desert', 'pc', 40, { attributes: { weapon: 'bow' } }),
    e('p2', 's2', 'start', at(D0, '11:00'), 'desert', 'ps5', 30, { metrics: { ping: 100 } }),
    e('p2', 's2', 'level_up', at(D0, '13:00'), 'desert', 'ps5', 25, { attributes: { mode: 'easy' } }),
    e('p3', 's3', 'start', at(D1, '12:00'), 'forest', 'ps5', 20),
    e('p3', 's3', 'finish', at(D1, '12:30'), 'forest', 'ps5', 35, { attributes: { weapon: 'axe' } }),
  ];
}

function theirEvents(projectId: string): [FixtureEvent, Extra][] {
  return Array.from({ length: 5 }, (_, i) => [
    {
      projectId,
      playerId: 'secret_b_player',
      sessionId: 'secret_b_session',
      eventName: 'secret_b_event',
      at: at(D0, `1${i}:00`),
      mapId: 'secret_b_map',
      platform: 'secret_b_platform',
      fps: 999,
    },
    { attributes: { secret_b_key: 'secret_b_value' } },
  ]);
}

function row([event, extra]: [FixtureEvent, Extra]): Record<string, unknown> {
  const attributes = Object.entries(extra.attributes ?? {});
  const metrics = Object.entries(extra.metrics ?? {});
  return {
    ...toRow({ ...event, eventId: extra.eventId ?? event.eventId }),
    'attributes.key': attributes.map(([k]) => k),
    'attributes.value': attributes.map(([, v]) => v),
    'metrics.key': metrics.map(([k]) => k),
    'metrics.value': metrics.map(([, v]) => v),
  };
}

/** Fresh project ids, known before the rows exist (test tables are built from them). */
export const newSqlFixture = (): SqlFixture => ({ ours: randomUUID(), theirs: randomUUID() });

export async function seedSqlFixture(admin: ClickHouseWriter, fixture: SqlFixture): Promise<void> {
  const ours = ourEvents(fixture.ours);
  await admin.insertJsonRows('events', [...ours, ...theirEvents(fixture.theirs)].map(row));
  // The redelivered copy arrives in a separate insert, i.e. a separate part, as it would.
  await admin.insertJsonRows('events', [row(ours[0]!)]);
}

/**
 * Three CI runs of project `projectId` on 2026-03-12 (after the other events), with the
 * attribute `ci.branch` and the metric `mem.vram` that map-access queries read:
 * main 3000 and 5000, feature-x 7000 (feature-x also carries other keys around it).
 */
export async function seedMapAccessRows(admin: ClickHouseWriter, projectId: string): Promise<void> {
  const ci = (time: string, branch: string, vram: number, extra: Extra = {}): [FixtureEvent, Extra] => [
    { projectId, playerId: 'ci', sessionId: `ci-${time}`, eventName: 'perf_run', at: at('2026-03-12', time) },
    {
      attributes: { ...extra.attributes, 'ci.branch': branch },
      metrics: { ...extra.metrics, 'mem.vram': vram },
    },
  ];
  await admin.insertJsonRows(
    'events',
    [
      ci('08:00', 'main', 3000),
      ci('09:00', 'main', 5000),
      ci('10:00', 'feature-x', 7000, { attributes: { gpu: 'rtx' }, metrics: { 'io.read_ops': 12 } }),
    ].map(row),
  );
}

/** Drops the per-project databases (and users) the tests created; the shared table's rows stay, as other tests' do. */
export async function dropProjectDatabases(admin: ClickHouseWriter, projectIds: string[]): Promise<void> {
  const databases = new ProjectDatabases(admin, testConfig.clickhouse.database, testConfig.clickhouse.sandbox);
  for (const projectId of projectIds) await databases.remove(projectId);
}

/**
 * `rows` synthetic events of one project, in January 2001 (a partition of their own), for
 * queries that must run long: enough rows for many blocks, so ClickHouse checks for
 * cancellation (KILL QUERY, max_execution_time) between them. Deleted by `deleteProjectRows`.
 */
export async function seedManyRows(admin: ClickHouseWriter, projectId: string, rows: number): Promise<void> {
  const engine = await admin.engine();
  // 18.16's generateUUIDv4 takes no argument; newer servers would fold an argument-less call per block.
  const eventId = engine.generation === 'legacy' ? 'generateUUIDv4()' : 'generateUUIDv4(number)';
  await admin.command(
    sql`INSERT INTO events (project_id, event_id, event_name, timestamp_us, timestamp, session_id, player_id, map_id, fps, received_at)
        SELECT toUUID(${projectId}), ${raw(eventId)}, 'tick', toInt64(978307200 + number % 86400) * 1000000,
               toDateTime(978307200 + number % 86400), 's', concat('p', toString(number % 1000)), 'm',
               toFloat32(number % 120), now()
        FROM system.numbers LIMIT ${raw(String(Math.trunc(rows)))}`,
  );
}

/** Removes a project's rows from the shared table (a mutation; runs in the background). */
export async function deleteProjectRows(admin: ClickHouseWriter, projectId: string): Promise<void> {
  await admin.command(sql`ALTER TABLE events DELETE WHERE project_id = toUUID(${projectId})`);
}

/**
 * CPU-bound per row, in memory the sandbox's 1 GB cap allows: ~1,050 hashes per row, over
 * `seedManyRows(…, 500_000)` far past the sandbox's 10 s limit on both engines, yet each
 * 8,192-row block (the sandbox's max_block_size) ends within about a second, which bounds how long
 * a kill takes. Sized after 26.7 finished the earlier 350-hash version within 1.5 s once the
 * modern engine's keepalive stopped spinning a core. `marker` finds it in system.processes.
 */
export const heavyQuery = (marker: string) =>
  `SELECT count() AS c, '${marker}' AS m FROM events WHERE arraySum(arrayMap(x -> sipHash64(x), range(toUInt64(fps) + 1000))) % 3 = 0`;

/** Whether a query whose text holds `marker` is still running in ClickHouse. */
export async function isRunning(admin: ClickHouseWriter, marker: string): Promise<boolean> {
  const rows = await admin.rows<{ n: number }>(
    sql`SELECT count() AS n FROM system.processes WHERE query LIKE ${`%${marker}%`} AND query NOT LIKE '%system.processes%'`,
  );
  return Number(rows[0]?.n ?? 0) > 0;
}

/** Milliseconds until `check` is true, polled every 50 ms, or throws after `timeoutMs`. */
export async function msUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
