import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifier, migrateClickHouse, sql, type ClickHouseWriter } from '@framedeck/clickhouse';
import { FUNNEL_BY, queryFunnel, type FunnelQuery } from '@framedeck/analytics';
import { ownClickHouseDatabase, type OwnDatabase } from '../support/own-database.js';
import { waitFor } from '../support/wait.js';
import { DAY, insertEvents, type FixtureEvent } from './event-fixtures.js';

// clickhouse/027–029 re-key funnel_steps by the event name's hash: a new table, fed by its own
// view while 018's rows are copied into it, then renamed to funnel_steps with the final view.
// This upgrades a database migrated up to 026 that holds events (a redelivered batch among
// them), then checks that no row was lost or doubled, that events inserted afterwards still
// reach the table, and that every funnel still equals the plain query over events. The same
// upgrade runs 034–036, which create funnel_step_hours and fill it from funnel_steps, and 038,
// which adds its half-hour edge: the funnels read their bounds there first, so they hold that
// table to the events as well. Dates are recent: a modern server's TTL would expire rows dated
// at the fixtures' NOW.
let database: OwnDatabase | undefined;
let clickhouse: ClickHouseWriter;
const projectId = randomUUID();
const now = new Date();
const start = now.getTime() - DAY;

/** Journeys of 30 players, an event every 7 s (each in its own second, see funnels-builds). */
function journeys(offsetSeconds: number, count: number): FixtureEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    projectId,
    playerId: `p${(i * 7) % 30}`,
    sessionId: `s${(i * 7) % 30}-${i % 2}`,
    // Each player's names cycle from round to round (a round: every player once, 210 s).
    eventName: ['start', 'level', 'finish', 'noise', 'start'][(Math.floor(i / 30) + (i % 30) * 3) % 5],
    at: new Date(start + (offsetSeconds + i * 7) * 1000),
    // Fixed ids: a batch inserted again is a redelivery, not new events.
    eventId: randomUUID(),
  }));
}
const before = journeys(0, 600);
const after = journeys(600 * 7, 200);

/** The project's rows as the readers see them (FINAL: a redelivered event collapses) and its distinct events. */
const tableRows = async (table: 'events' | 'funnel_steps') => {
  const [row] = await clickhouse.rows<{ n: number; events: number }>(
    sql`SELECT count() AS n, uniqExact(event_id) AS events FROM ${identifier(table)} FINAL
         WHERE project_id = toUUID(${projectId})`,
  );
  return { rows: Number(row!.n), events: Number(row!.events) };
};

const funnelsOf = (steps: string[]): FunnelQuery[] =>
  FUNNEL_BY.flatMap((by) =>
    [600, 86_400].map((windowSeconds) => ({ projectId, steps, windowSeconds, by, days: 7, now })),
  );

beforeAll(async () => {
  database = await ownClickHouseDatabase('upgrade027', { migratedBefore: 27 });
  clickhouse = database.writer;
  await insertEvents(clickhouse, before);
  await insertEvents(clickhouse, before.slice(0, 100)); // a redelivered batch
  await migrateClickHouse(clickhouse);
  await insertEvents(clickhouse, after);
});

afterAll(async () => {
  await database?.drop();
});

describe('027–029, 034–036 and 038 on a database with funnel events', () => {
  it('re-keys funnel_steps by the name hash and leaves no temporary table or view behind', async () => {
    const [table] = await clickhouse.rows<{ statement: string }>(sql`SHOW CREATE TABLE funnel_steps`);
    expect(table!.statement).toMatch(/ORDER BY \(project_id, event_name_hash, player_hash, timestamp, event_id\)/);
    const left = await clickhouse.rows<{ name: string }>(
      sql`SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'funnel\\_steps%' ORDER BY name`,
    );
    expect(left.map((t) => t.name)).toEqual(['funnel_steps', 'funnel_steps_mv']);
  });

  it('holds every event once: those copied from 018 and those inserted after the swap', async () => {
    const events = await tableRows('events');
    expect(events.events).toBe(before.length + after.length);
    expect(await tableRows('funnel_steps')).toEqual({ rows: events.events, events: events.events });
  });

  it('bounds every (player, session, step, hour) of funnel_steps in funnel_step_hours: its first and last event (036), its first from the half hour on (038)', async () => {
    const project = sql`project_id = toUUID(${projectId})`;
    // Per edge, the row count and a checksum of its keys and times, from the bounds and as
    // funnel_steps says they must be.
    const summary = sql`count() AS n, sum(cityHash64(player_id, session_hash, event_name_hash, hour, seen)) AS checksum`;
    const stored = await clickhouse.rows<{ edge: number; n: number; checksum: string }>(
      sql`SELECT edge, ${summary} FROM funnel_step_hours FINAL WHERE ${project} GROUP BY edge ORDER BY edge`,
    );
    const expected = await clickhouse.rows<{ edge: number; n: number; checksum: string }>(
      sql`SELECT edge, ${summary}
            FROM (SELECT player_id, session_hash, event_name_hash, toStartOfHour(timestamp) AS hour, edge,
                         multiIf(edge = 0, min(timestamp), edge = 1, max(timestamp), minIf(timestamp, toMinute(timestamp) >= 30)) AS seen,
                         countIf(toMinute(timestamp) >= 30) AS fromHalfHour
                    FROM funnel_steps FINAL ARRAY JOIN [0, 1, 2] AS edge
                   WHERE ${project}
                   GROUP BY player_id, session_hash, event_name_hash, hour, edge)
           WHERE edge != 2 OR fromHalfHour > 0
           GROUP BY edge ORDER BY edge`,
    );
    expect(expected.map((e) => Number(e.edge))).toEqual([0, 1, 2]);
    expect(Number(expected[2]!.n)).toBeGreaterThan(0);
    expect(stored).toEqual(expected);
  });

  it('answers every funnel as the plain query over events', async () => {
    // Both tables collapsed first: an uncollapsed redelivered event counts as two in a funnel
    // that repeats its name (start → start), and each table merges on its own schedule.
    await clickhouse.command(sql`OPTIMIZE TABLE events FINAL`);
    await clickhouse.command(sql`OPTIMIZE TABLE funnel_steps FINAL`);
    let converted = 0;
    for (const steps of [
      ['start', 'level', 'finish'],
      ['finish', 'start'],
      ['start', 'start'],
    ])
      for (const q of funnelsOf(steps)) {
        const fromSteps = await queryFunnel(clickhouse, q, 'rollups');
        expect(fromSteps, JSON.stringify(q)).toEqual(await queryFunnel(clickhouse, q, 'events'));
        if (fromSteps.steps.at(-1)!.count > 0) converted++;
      }
    expect(converted).toBeGreaterThan(6);
  });

  it('runs again harmlessly: 029 re-applied after it completed changes no row', async () => {
    const rowsBefore = await tableRows('funnel_steps');
    await clickhouse.command(
      sql`ALTER TABLE schema_migrations DELETE WHERE name = '029_funnel_steps_by_name_hash_swap.sql'`,
    );
    await waitFor(
      async () => {
        const [row] = await clickhouse.rows<{ n: number }>(
          sql`SELECT count() AS n FROM system.mutations WHERE database = currentDatabase() AND is_done = 0`,
        );
        return Number(row!.n) === 0;
      },
      { timeoutMs: 10_000, intervalMs: 100, what: 'the schema_migrations mutation' },
    );
    // It did run again (a record still in place would make this test prove nothing).
    expect((await migrateClickHouse(clickhouse)).applied).toEqual(['029_funnel_steps_by_name_hash_swap.sql']);
    expect(await tableRows('funnel_steps')).toEqual(rowsBefore);
    await insertEvents(clickhouse, journeys(800 * 7, 10));
    expect((await tableRows('funnel_steps')).events).toBe(rowsBefore.events + 10);
  });
});
