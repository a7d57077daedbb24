import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseWriter } from '@framedeck/clickhouse';
import { queryDashboard, queryRetention, type DimensionFilter } from '@framedeck/analytics';
import { testConfig } from '../support/stack.js';
import { insertEvents, NOW } from './event-fixtures.js';
import { playerActivity } from './player-activity.fixture.js';
import { recordingClient } from './recording-client.js';

const clickhouse = createClickHouseWriter(testConfig.clickhouse);
const { projectId, events } = playerActivity();

beforeAll(async () => {
  await insertEvents(clickhouse, events);
});
afterAll(async () => {
  await clickhouse.close();
});

describe('retention', () => {
  it('daily cohorts by first-seen day, N = 0..k, null for periods that have not begun', async () => {
    const result = await queryRetention(clickhouse, { projectId, period: 'day', days: 7, k: 3, now: NOW });
    // p4 (first seen 17 days ago) and p6 (10 days ago) are not new players of this week.
    expect(result).toEqual({
      period: 'day',
      k: 3,
      cohorts: [
        { cohort: '2026-03-15', size: 3, retained: [3, 1, 2, 2], rates: [1, 1 / 3, 2 / 3, 2 / 3] },
        { cohort: '2026-03-16', size: 1, retained: [1, 1, 1, null], rates: [1, 1, 1, null] },
      ],
    });
  });

  it('weekly cohorts by first-seen Monday', async () => {
    const result = await queryRetention(clickhouse, { projectId, period: 'week', days: 14, k: 2, now: NOW });
    expect(result.cohorts).toEqual([
      { cohort: '2026-03-02', size: 1, retained: [1, 0, 0], rates: [1, 0, 0] },
      { cohort: '2026-03-09', size: 3, retained: [3, 2, null], rates: [1, 2 / 3, null] },
      { cohort: '2026-03-16', size: 1, retained: [1, null, null], rates: [1, null, null] },
    ]);
  });

  it('the player_days and player_activity sets give exactly the answer of the raw events (random activity, duplicates and filters included)', async () => {
    const random = randomUUID();
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const fixture = Array.from({ length: 800 }, () => ({
      projectId: random,
      playerId: `r${Math.floor(next() * 300)}`,
      eventName: 'tick',
      at: new Date(NOW.getTime() - Math.floor(next() * 20 * 86_400_000)),
      platform: ['pc', 'switch'][Math.floor(next() * 2)],
      buildId: ['1.0', '1.1', '1.2'][Math.floor(next() * 3)],
      source: (['player', 'automated', 'unspecified'] as const)[Math.floor(next() * 3)],
    }));
    await insertEvents(clickhouse, fixture);
    await insertEvents(clickhouse, fixture.slice(0, 100)); // a redelivered batch: same rows again
    const filters: Array<[DimensionFilter, string]> = [
      [{}, 'FROM player_days'],
      [{ platform: 'switch' }, 'FROM player_activity'],
      [{ buildId: '1.1', platform: 'pc' }, 'FROM player_activity'],
      [{ source: 'automated' }, 'FROM events'], // no set keeps sources
      [{ source: 'player', buildId: '1.2' }, 'FROM events'],
    ];
    for (const [filter, table] of filters)
      for (const [period, days, k] of [
        ['day', 14, 7],
        ['week', 30, 3],
      ] as const) {
        const q = { projectId: random, period, days, k, ...filter, now: NOW };
        const recorded = recordingClient(clickhouse);
        const rollup = await queryRetention(recorded.client, q, 'rollups');
        expect(rollup.cohorts.length, JSON.stringify(q)).toBeGreaterThan(1);
        expect(rollup, JSON.stringify(q)).toEqual(await queryRetention(clickhouse, q, 'events'));
        expect(recorded.sent.join('\n')).toContain(table);
      }
    // A filter changes the answer (the test would pass vacuously if filters were ignored).
    const unfiltered = await queryRetention(clickhouse, { projectId: random, period: 'day', days: 14, k: 7, now: NOW });
    const switchOnly = await queryRetention(clickhouse, {
      projectId: random,
      period: 'day',
      days: 14,
      k: 7,
      platform: 'switch',
      now: NOW,
    });
    expect(switchOnly).not.toEqual(unfiltered);
  });

  it('a project without players has no cohorts', async () => {
    const result = await queryRetention(clickhouse, {
      projectId: randomUUID(),
      period: 'day',
      days: 30,
      k: 7,
      now: NOW,
    });
    expect(result.cohorts).toEqual([]);
  });
});

describe('dashboard', () => {
  it('DAU, MAU, sessions, events and the daily series', async () => {
    expect(await queryDashboard(clickhouse, { projectId, days: 7, now: NOW })).toEqual({
      dau: 3,
      mau: 6,
      players: 5,
      sessions: 13,
      events: 14,
      avgDau: 3,
      stickiness: 0.5,
      daily: [
        { date: '2026-03-15', events: 3, players: 3, sessions: 3 },
        { date: '2026-03-16', events: 3, players: 3, sessions: 3 },
        { date: '2026-03-17', events: 3, players: 3, sessions: 3 },
        { date: '2026-03-18', events: 5, players: 3, sessions: 4 },
      ],
    });
  });

  it('an empty project gives zeros, not errors', async () => {
    const result = await queryDashboard(clickhouse, { projectId: randomUUID(), days: 30, now: NOW });
    expect(result).toMatchObject({ dau: 0, mau: 0, events: 0, players: 0, sessions: 0, stickiness: 0, daily: [] });
  });
});
