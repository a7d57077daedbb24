import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseWriter } from '@framedeck/clickhouse';
import {
  INSIGHT_GROUP_BY,
  INSIGHT_METRICS,
  queryInsights,
  type DimensionFilter,
  type InsightGroupBy,
  type InsightMetric,
  type InsightsQuery,
} from '@framedeck/analytics';
import { testConfig } from '../support/stack.js';
import { daysBefore, insertEvents, NOW } from './event-fixtures.js';
import { playerActivity } from './player-activity.fixture.js';
import { recordingClient } from './recording-client.js';

const clickhouse = createClickHouseWriter(testConfig.clickhouse);
const { projectId, events } = playerActivity();
const manyMapsProject = randomUUID();

beforeAll(async () => {
  // 12 maps with 1..12 events each: more groups than the default limit.
  const manyMaps = Array.from({ length: 12 }, (_, i) =>
    Array.from({ length: i + 1 }, () => ({
      projectId: manyMapsProject,
      mapId: `map-${String(i + 1).padStart(2, '0')}`,
      at: daysBefore(1),
    })),
  ).flat();
  await insertEvents(clickhouse, [...events, ...manyMaps]);
});
afterAll(async () => {
  await clickhouse.close();
});

/** The rollup each rollup-served insight must read (see queryInsights). */
function expectedRollup(metric: InsightMetric, groupBy: InsightGroupBy, filter: DimensionFilter): string {
  if (metric === 'count') return 'rollup_daily_counts';
  const bySketch = ['day', 'week', 'month', 'event_name'].includes(groupBy) && Object.keys(filter).length === 0;
  return bySketch ? 'rollup_event_player_sketches' : 'player_activity';
}

const insights = (q: Partial<InsightsQuery>) =>
  queryInsights(clickhouse, { projectId, metric: 'count', groupBy: 'day', days: 30, limit: 10, now: NOW, ...q });

describe('insights', () => {
  it('count by day: oldest first, total and distinct groups over the range', async () => {
    expect(await insights({})).toEqual({
      rows: [
        { group: '2026-03-01', value: 1 },
        { group: '2026-03-08', value: 1 },
        { group: '2026-03-15', value: 3 },
        { group: '2026-03-16', value: 3 },
        { group: '2026-03-17', value: 3 },
        { group: '2026-03-18', value: 5 },
      ],
      total: 16,
      distinctGroups: 6,
    });
  });

  it('days narrows the range (7 days: whole UTC days from 2026-03-11 00:00)', async () => {
    const result = await insights({ days: 7 });
    expect(result.rows.map((r) => r.group)).toEqual(['2026-03-15', '2026-03-16', '2026-03-17', '2026-03-18']);
    expect(result.total).toBe(14);
  });

  it('unique_players by day; the total counts each player once across days, anonymous events none', async () => {
    const result = await insights({ metric: 'unique_players', days: 7 });
    expect(result.rows).toEqual([
      { group: '2026-03-15', value: 3 },
      { group: '2026-03-16', value: 3 },
      { group: '2026-03-17', value: 3 },
      { group: '2026-03-18', value: 3 },
    ]);
    expect(result.total).toBe(5); // p1, p2, p3, p4, p5
  });

  it('week groups start on Monday, month groups are YYYY-MM', async () => {
    expect((await insights({ groupBy: 'week', days: 7 })).rows).toEqual([
      { group: '2026-03-09', value: 3 },
      { group: '2026-03-16', value: 11 },
    ]);
    expect((await insights({ groupBy: 'month', days: 30 })).rows).toEqual([{ group: '2026-03', value: 16 }]);
  });

  it('categorical groups: largest first; eventName filters', async () => {
    expect((await insights({ groupBy: 'event_name' })).rows).toEqual([
      { group: 'start', value: 13 },
      { group: 'kill', value: 3 },
    ]);
    expect((await insights({ groupBy: 'platform', metric: 'unique_players' })).rows).toEqual([
      { group: 'pc', value: 5 },
      { group: 'ps5', value: 1 },
    ]);
    expect(await insights({ groupBy: 'map_id', eventName: 'kill' })).toEqual({
      rows: [{ group: 'm1', value: 3 }],
      total: 3,
      distinctGroups: 1,
    });
  });

  it('limit caps the rows while total and distinctGroups still cover every group', async () => {
    const result = await insights({ projectId: manyMapsProject, groupBy: 'map_id', limit: 10 });
    expect(result.rows).toHaveLength(10);
    expect(result.rows[0]).toEqual({ group: 'map-12', value: 12 });
    expect(result.rows[9]).toEqual({ group: 'map-03', value: 3 });
    expect(result.total).toBe(78);
    expect(result.distinctGroups).toBe(12);
    const recent = await insights({ projectId: manyMapsProject, groupBy: 'build_id', limit: 10 });
    expect(recent).toEqual({ rows: [{ group: '', value: 78 }], total: 78, distinctGroups: 1 });
  });

  it('the rollups (rollup_daily_counts, rollup_event_player_sketches, player_activity) give exactly the answer of the raw events, filtered or not', async () => {
    // Random activity over 100 days, anonymous events and repeated rows included, and events
    // either side of each range's start.
    const random = randomUUID();
    let seed = 7;
    const next = (n: number) => Math.floor(((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * n);
    const fixture = Array.from({ length: 1500 }, () => ({
      projectId: random,
      playerId: next(10) === 0 ? undefined : `r${next(200)}`,
      eventName: `name_${next(25)}`,
      mapId: `map_${next(4)}`,
      platform: ['pc', 'ps5', 'xbox', ''][next(4)],
      buildId: `build_${next(6)}`,
      source: (['player', 'automated', 'unspecified'] as const)[next(3)],
      at: new Date(NOW.getTime() - next(100 * 86_400) * 1000),
    }));
    await insertEvents(clickhouse, fixture);
    await insertEvents(clickhouse, fixture.slice(0, 100)); // a redelivered batch: same rows again
    const recorded = recordingClient(clickhouse);
    const filters: DimensionFilter[] = [
      {},
      { platform: 'ps5' },
      { buildId: 'build_2', platform: 'pc' },
      { source: 'automated' },
      { source: 'player', buildId: 'build_4' },
    ];
    let compared = 0;
    const unfilteredTotals = new Map<string, number>();
    let filteredDiffer = 0;
    for (const filter of filters)
      for (const metric of INSIGHT_METRICS)
        for (const groupBy of INSIGHT_GROUP_BY)
          for (const days of [7, 90])
            for (const eventName of [undefined, 'name_3']) {
              const q: InsightsQuery = {
                projectId: random,
                metric,
                groupBy,
                days,
                limit: 10,
                eventName,
                ...filter,
                now: NOW,
              };
              const fromRollups = await queryInsights(recorded.client, q, 'rollups');
              if (days === 90) expect(fromRollups.rows.length, JSON.stringify(q)).toBeGreaterThan(0);
              expect(fromRollups, JSON.stringify(q)).toEqual(await queryInsights(clickhouse, q, 'events'));
              // ...and the answer did come from the rollups, not from a plain scan — but for unique
              // players by source, which no set keeps (the documented fallback to events).
              const text = recorded.sent.splice(0).join('\n');
              if (metric === 'unique_players' && filter.source !== undefined) {
                expect(text).toContain('FROM events');
              } else {
                expect(text).toContain(`FROM ${expectedRollup(metric, groupBy, filter)}`);
                expect(text).not.toContain('FROM events');
              }
              compared++;
              const key = JSON.stringify([metric, groupBy, days, eventName]);
              if (filter === filters[0]) unfilteredTotals.set(key, fromRollups.total);
              else if (fromRollups.total !== unfilteredTotals.get(key)) filteredDiffer++;
            }
    expect(compared).toBe(filters.length * 2 * 7 * 2 * 2);
    expect(filteredDiffer).toBeGreaterThan((filters.length - 1) * 2 * 7 * 2); // filters do filter
  });

  it("unique players beyond the sketches' exact range: the merged per-day sketches give the one-pass answer", async () => {
    // 3,000 players over 3 days and 2 names: each day and name's sketch holds 500 players (an
    // exact set up to 2^9), each day 1,000 and each name 1,500, so what the merges across names
    // and days build are HyperLogLog registers.
    const sketched = randomUUID();
    const fixture = Array.from({ length: 6000 }, (_, i) => ({
      projectId: sketched,
      playerId: `hll-${i % 3000}`,
      eventName: i % 2 === 0 ? 'spawn' : 'match_end',
      at: daysBefore(1 + (i % 3)),
    }));
    await insertEvents(clickhouse, fixture);
    const recorded = recordingClient(clickhouse);
    for (const groupBy of ['day', 'event_name', 'month'] as const) {
      const q: InsightsQuery = { projectId: sketched, metric: 'unique_players', groupBy, days: 7, limit: 10, now: NOW };
      const fromSketches = await queryInsights(recorded.client, q, 'rollups');
      expect(recorded.sent.splice(0).join('\n')).toContain('FROM rollup_event_player_sketches');
      expect(fromSketches, groupBy).toEqual(await queryInsights(clickhouse, q, 'events'));
      // Approximate beyond 2^9 (the documented bound), but close: 3,000 distinct players.
      expect(Math.abs(fromSketches.total / 3000 - 1), groupBy).toBeLessThan(0.05);
    }
  });

  it('a project without events has no rows and zero totals', async () => {
    expect(await insights({ projectId: randomUUID() })).toEqual({ rows: [], total: 0, distinctGroups: 0 });
  });
});
