import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateClickHouse, queryProjectActivity, sql, type ClickHouseWriter } from '@framedeck/clickhouse';
import { queryDashboard } from '@framedeck/analytics';
import { ownClickHouseDatabase, type OwnDatabase } from '../support/own-database.js';
import { DAY, insertEvents, type FixtureEvent } from './event-fixtures.js';

// clickhouse/023 sketches the dashboard's players and sessions again at 2^13 cells. Players come
// from the player_days set for every day; sessions can only come from the raw events still
// stored, so a day whose raw events had expired keeps 016's sessions state. 024 moves the
// status's hourly distinct counts to a table of their own, copying rollup_project_hours' states.
// This upgrades a database that has an expired day: migrated up to 022, filled, its oldest raw
// week dropped as the retention worker drops it, then migrated to the latest. Dates are recent:
// a modern server's TTL would expire rows dated at the fixtures' NOW.
let database: OwnDatabase | undefined;
let clickhouse: ClickHouseWriter;
const projectId = randomUUID();
const now = new Date();
const utcDay = (d: Date) => d.toISOString().slice(0, 10);
/** Noon UTC `days` days ago: a day's fixture events stay within that day. */
const noonDaysAgo = (days: number) => new Date(Date.parse(utcDay(now)) + 12 * 3_600_000 - days * DAY);
const expiredDay = noonDaysAgo(20);
const storedDay = noonDaysAgo(1);
/** Within the status's last 24 hours. */
const lastHours = new Date(now.getTime() - 2 * 3_600_000);

beforeAll(async () => {
  database = await ownClickHouseDatabase('upgrade023', { migratedBefore: 23 });
  clickhouse = database.writer;

  // Twice as many events as sessions, a minute apart; session ids of the group's own.
  const group = (name: string, at: Date, players: string[], sessions: number): FixtureEvent[] =>
    Array.from({ length: sessions * 2 }, (_, i) => ({
      projectId,
      at: new Date(at.getTime() + i * 60_000),
      playerId: players[i % players.length],
      sessionId: `${name}-s${i % sessions}`,
    }));
  await insertEvents(clickhouse, [
    ...group('expired', expiredDay, ['p1', 'p2', 'p3', 'p4'], 5),
    ...group('stored', storedDay, ['p1', 'p5'], 3),
    ...group('recent', lastHours, ['p6', 'p7', 'p8'], 4),
  ]);

  // The expired day's raw week goes, as the retention worker drops it: partition (retention days, its Monday).
  const parts = await clickhouse.rows<{ partition_id: string }>(sql`SELECT DISTINCT partition_id FROM system.parts
      WHERE database = currentDatabase() AND table = 'events' AND active`);
  const monday = new Date(expiredDay.getTime() - ((expiredDay.getUTCDay() + 6) % 7) * DAY);
  const expired = parts.find((p) => p.partition_id.endsWith(`-${utcDay(monday).replaceAll('-', '')}`));
  expect(expired, JSON.stringify(parts)).toBeDefined();
  await clickhouse.command(sql`ALTER TABLE events DROP PARTITION ID ${expired!.partition_id}`);

  await migrateClickHouse(clickhouse);
});

afterAll(async () => {
  await database?.drop();
});

describe('023 and 024 on a database whose oldest raw events have expired', () => {
  it("keeps the expired day's sessions (016's state) and every day's players", async () => {
    const dashboard = await queryDashboard(clickhouse, { projectId, days: 30, now });
    expect(dashboard.daily[0]).toEqual({ date: utcDay(expiredDay), events: 10, players: 4, sessions: 5 });
    // Players over the range are one union (p1 on two days counts once); sessions are the
    // kinds' counts added, as they are on different days.
    expect(dashboard).toMatchObject({ players: 8, sessions: 12, events: 24, mau: 8 });
  });

  it("the status's distinct counts of the last 24 hours: copied from the hours, equal to the raw events'", async () => {
    const fromRollups = await queryProjectActivity(clickhouse, projectId, 'rollups');
    expect(fromRollups).toEqual(await queryProjectActivity(clickhouse, projectId, 'events'));
    expect(fromRollups.activePlayers24h).toBeGreaterThanOrEqual(3);
    expect(fromRollups.activeSessions24h).toBeGreaterThanOrEqual(4);
  });

  it("stores a day in one sessions column: sketched where raw events remained, 016's state where not", async () => {
    const rows = await clickhouse.rows<{
      day: string;
      sketched: number;
      before: number;
    }>(sql`SELECT toString(day) AS day,
        uniqCombinedMerge(13)(sessions) AS sketched, uniqCombinedMerge(sessions_before_sketches) AS before
      FROM rollup_day_sketches WHERE project_id = toUUID(${projectId}) GROUP BY day ORDER BY day`);
    const byDay = rows.map((r) => ({ ...r, sketched: Number(r.sketched), before: Number(r.before) }));
    expect(byDay[0]).toEqual({ day: utcDay(expiredDay), sketched: 0, before: 5 });
    expect(byDay.slice(1).every((r) => r.sketched > 0 && r.before === 0)).toBe(true);
  });
});
