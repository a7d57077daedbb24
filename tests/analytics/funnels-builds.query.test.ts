import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseWriter } from '@framedeck/clickhouse';
import {
  compareBuilds,
  FUNNEL_BY,
  FUNNEL_UNDECIDED_LIMIT,
  queryBuilds,
  queryFunnel,
  reportedQuantile,
  type DimensionFilter,
  type FunnelBy,
} from '@framedeck/analytics';
import { testConfig } from '../support/stack.js';
import { daysBefore, insertEvents, NOW, type FixtureEvent } from './event-fixtures.js';
import { recordingClient } from './recording-client.js';

const clickhouse = createClickHouseWriter(testConfig.clickhouse);
const funnelProject = randomUUID();
const buildsProject = randomUUID();
const MB = 1_048_576;

const t0 = daysBefore(1);
const step = (playerId: string, sessionId: string, eventName: string, seconds: number): FixtureEvent => ({
  projectId: funnelProject,
  playerId,
  sessionId,
  eventName,
  at: new Date(t0.getTime() + seconds * 1000),
  // For the filters: p5 plays on Switch, p2 is an automated run.
  platform: playerId === 'p5' ? 'switch' : 'pc',
  source: playerId === 'p2' ? 'automated' : 'player',
});
// start → level → finish, window 600 s
const funnelEvents = [
  ...[step('p1', 's1', 'start', 0), step('p1', 's1', 'level', 60), step('p1', 's1', 'finish', 120)], // 3
  ...[step('p2', 's2', 'start', 0), step('p2', 's2', 'finish', 30), step('p2', 's2', 'level', 60)], // 2: finish before level
  ...[step('p3', 's3', 'start', 0), step('p3', 's3', 'level', 700)], // 1: level outside the window
  ...[step('p4', 's4', 'level', 0), step('p4', 's4', 'finish', 10)], // 0: never started
  ...[step('p5', 's5a', 'start', 0), step('p5', 's5a', 'level', 60), step('p5', 's5b', 'finish', 90)], // player 3, sessions 2 + 0
  step('p6', 's6', 'unrelated', 0),
];

const sample = (buildId: string, mapId: string, m: Partial<FixtureEvent>): FixtureEvent => ({
  projectId: buildsProject,
  buildId,
  mapId,
  at: daysBefore(2),
  platform: 'pc',
  ...m,
});
const buildEvents: FixtureEvent[] = [
  // b1: 40 samples on m1 and 5 on m2; b2: 40 samples on m1 only.
  ...Array.from({ length: 40 }, () =>
    sample('b1', 'm1', { fps: 60, frameTimeMs: 16, memoryBytes: 1000 * MB, gameThreadMs: 8 }),
  ),
  ...Array.from({ length: 5 }, () =>
    sample('b1', 'm2', { fps: 60, frameTimeMs: 16, memoryBytes: 1000 * MB, gameThreadMs: 8 }),
  ),
  ...Array.from({ length: 40 }, (_, i) =>
    sample('b2', 'm1', {
      fps: 50,
      frameTimeMs: 16.4,
      memoryBytes: 800 * MB,
      gameThreadMs: i < 20 ? 4 : 12,
      at: daysBefore(1),
    }),
  ),
  sample('b3', 'm1', { eventName: 'no-performance' }), // no sample: not a build "with performance data"
];

beforeAll(async () => {
  await insertEvents(clickhouse, [...funnelEvents, ...buildEvents]);
});
afterAll(async () => {
  await clickhouse.close();
});

describe('funnels', () => {
  const funnel = (by: 'player' | 'session', filter: DimensionFilter = {}) =>
    queryFunnel(clickhouse, {
      projectId: funnelProject,
      steps: ['start', 'level', 'finish'],
      windowSeconds: 600,
      by,
      days: 7,
      ...filter,
      now: NOW,
    });

  it('by player: in order, within the window, counted at each step', async () => {
    expect((await funnel('player')).steps).toEqual([
      { eventName: 'start', count: 4, conversion: 1, conversionFromPrevious: 1 },
      { eventName: 'level', count: 3, conversion: 0.75, conversionFromPrevious: 0.75 },
      { eventName: 'finish', count: 2, conversion: 0.5, conversionFromPrevious: 2 / 3 },
    ]);
  });

  it('by session: a journey split over two sessions does not convert', async () => {
    expect((await funnel('session')).steps.map((s) => s.count)).toEqual([4, 3, 1]);
  });

  it('platform, build and source filters: only those events are steps', async () => {
    const counts = async (filter: DimensionFilter) => (await funnel('player', filter)).steps.map((s) => s.count);
    expect(await counts({ platform: 'switch' })).toEqual([1, 1, 1]); // p5
    expect(await counts({ source: 'automated' })).toEqual([1, 1, 0]); // p2: finish came before level
    expect(await counts({ source: 'player' })).toEqual([3, 2, 2]); // p1, p3, p5
    expect(await counts({ source: 'player', platform: 'pc' })).toEqual([2, 1, 1]); // p1, p3
    expect(await counts({ buildId: 'no-such-build' })).toEqual([0, 0, 0]);
  });
});

describe('funnels from the rollups (funnel_step_hours bounds, then funnel_steps) equal the plain query over events', () => {
  it('random journeys: every entity, window, step list and filter; redelivered events change nothing', async () => {
    const projectId = randomUUID();
    let seed = 5;
    const next = (n: number) => Math.floor(((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * n);
    // Each event in its own second (7919 is prime to the 10-day range): windowFunnel orders
    // events of the same second arbitrarily, on either table.
    const fixture: FixtureEvent[] = Array.from({ length: 2000 }, (_, i) => {
      const playerId = next(12) === 0 ? undefined : `fp${next(40)}`;
      return {
        projectId,
        playerId,
        sessionId: next(12) === 0 ? undefined : `${playerId ?? 'anon'}-s${next(3)}`,
        eventName: ['a', 'b', 'c', 'd', 'noise'][next(5)],
        at: new Date(daysBefore(10).getTime() + ((i * 7919) % (10 * 86_400)) * 1000),
        platform: ['pc', 'ps5', ''][next(3)],
        buildId: ['1.0', '1.1'][next(2)],
        source: (['player', 'automated', 'unspecified'] as const)[next(3)],
      };
    });
    await insertEvents(clickhouse, fixture);
    await insertEvents(clickhouse, fixture.slice(0, 300)); // a redelivered batch
    const recorded = recordingClient(clickhouse);
    const filters: DimensionFilter[] = [
      {},
      { platform: 'ps5' },
      { buildId: '1.1', source: 'player' },
      { source: 'automated' },
    ];
    let converted = 0;
    const paths = { boundsAlone: 0, boundsThenListed: 0, wholeFunnel: 0 };
    // Each slice of the entities (two on 18.16) is bounded and counted on its own, on its share
    // of the server's threads (read from the server by the probe: 18.16 only).
    const engine = await clickhouse.engine();
    const { count: funnelSlices, threadsEach } = engine.funnelSlices;
    expect(threadsEach === undefined).toBe(engine.generation === 'modern');
    for (const by of FUNNEL_BY)
      for (const steps of [
        ['a', 'b', 'c'],
        ['c', 'a', 'd', 'b'],
        ['a', 'a'],
      ])
        for (const windowSeconds of [60, 600, 3_600, 86_400])
          for (const filter of filters)
            for (const undecidedLimit of [FUNNEL_UNDECIDED_LIMIT, 0]) {
              const q = { projectId, steps, windowSeconds, by, days: 30, ...filter, now: NOW };
              const fromRollups = await queryFunnel(recorded.client, q, 'rollups', undecidedLimit);
              const sent = recorded.sent.splice(0);
              // Players are counted in slices, each query on its slice's share of the threads (the
              // server takes the setting); sessions in one query on every thread: their hashes are
              // not in the tables' sorting key, so every slice would read every row.
              const slices = by === 'player' ? funnelSlices : 1;
              for (const text of sent)
                if (by === 'player' && threadsEach !== undefined)
                  expect(text).toContain(`max_threads = ${threadsEach}`);
                else expect(text).not.toContain('max_threads');
              // funnel_steps (027/029) is read by its sorting key, the steps' name hashes.
              const exact = sent.filter((text) =>
                /FROM funnel_steps\s[\s\S]*event_name_hash IN \(cityHash64\(/.test(text),
              );
              if (new Set(steps).size < steps.length || windowSeconds < 3_600) {
                // A step list naming one event twice, or a window under the bounds' hour: no
                // bounds, the whole funnel is exact.
                expect(sent.some((text) => text.includes('funnel_step_hours'))).toBe(false);
                expect(exact).toHaveLength(slices);
              } else {
                const bounds = sent.filter((text) => text.includes('funnel_step_hours'));
                expect(bounds).toHaveLength(slices);
                for (const text of bounds)
                  expect(text).toMatch(/FROM funnel_step_hours[\s\S]*event_name_hash IN \(cityHash64\(/);
                // The open entities are listed in PREWHERE: only their key column is read around them.
                const listed = exact.filter((text) => /PREWHERE \w+_hash IN \(\d/.test(text));
                if (exact.length === 0) paths.boundsAlone++;
                else if (listed.length === exact.length) paths.boundsThenListed++;
                else paths.wholeFunnel++;
                // Over the limit (0 here) the open entities are not listed: the whole funnel is counted.
                if (undecidedLimit === 0) expect(listed).toHaveLength(0);
              }
              expect(fromRollups, JSON.stringify({ ...q, undecidedLimit })).toEqual(
                await queryFunnel(clickhouse, q, 'events'),
              );
              if (fromRollups.steps.at(-1)!.count > 0) converted++;
            }
    // Journeys did convert (an empty answer on both sides would also be equal), and each way of
    // counting served some of them: the bounds alone, the bounds and a listed few, everything exact.
    expect(converted).toBeGreaterThan(20);
    expect(paths.boundsAlone, JSON.stringify(paths)).toBeGreaterThan(0);
    expect(paths.boundsThenListed, JSON.stringify(paths)).toBeGreaterThan(0);
    expect(paths.wholeFunnel, JSON.stringify(paths)).toBeGreaterThan(0);
  });
});

describe('funnel bounds (clickhouse/034) leave open what they cannot prove', () => {
  /**
   * One player's events in one session (name, second after the start of an hour), in a project
   * of its own, counted by player or by session.
   */
  const journey = async (events: ReadonlyArray<readonly [string, number]>, by: FunnelBy = 'player') => {
    const projectId = randomUUID();
    const hour = new Date(Math.floor(daysBefore(2).getTime() / 3_600_000) * 3_600_000);
    await insertEvents(
      clickhouse,
      events.map(([eventName, second]) => ({
        projectId,
        playerId: 'p',
        sessionId: 's',
        eventName,
        at: new Date(hour.getTime() + second * 1000),
      })),
    );
    const q = {
      projectId,
      steps: ['start', 'level', 'finish'],
      windowSeconds: 3_600,
      by,
      days: 7,
      now: NOW,
    };
    const recorded = recordingClient(clickhouse);
    const fromRollups = await queryFunnel(recorded.client, q, 'rollups');
    const listed = recorded.sent.filter((text) => /FROM funnel_steps\s[\s\S]*_hash IN \(\d/.test(text));
    return {
      fromRollups,
      fromEvents: await queryFunnel(clickhouse, q, 'events'),
      // The whole funnel counted exactly from funnel_steps (no entity may be listed: limit 0).
      fromFunnelSteps: await queryFunnel(clickhouse, q, 'rollups', 0),
      listed,
    };
  };

  /**
   * The journey counted by player and by session: the rollups equal the plain query, which
   * counts `counts`, and `listed` of each entity is counted exactly by its key.
   */
  const expectCounted = async (
    events: ReadonlyArray<readonly [string, number]>,
    counts: number[],
    listed: Record<FunnelBy, number>,
  ) => {
    for (const by of FUNNEL_BY) {
      const counted = await journey(events, by);
      expect(counted.fromEvents.steps.map((s) => s.count)).toEqual(counts);
      expect(counted.fromRollups).toEqual(counted.fromEvents);
      expect([by, counted.listed.length]).toEqual([by, listed[by]]);
    }
  };

  it('a chain through the middle of an hour: the first and last events miss it, the half hour’s first (038) does not', async () => {
    // level at 10 s, 2,000 and 3,500 (first 10, last 3,500), start at 100, finish at 3,000: no
    // first or last level lies between start and finish; level 2,000, the hour's first from its
    // half hour on, does. Settled by the bounds, nobody listed.
    const events = [
      ['level', 10],
      ['start', 100],
      ['level', 2000],
      ['finish', 3000],
      ['level', 3500],
    ] as const;
    await expectCounted(events, [1, 1, 1], { player: 0, session: 0 });
  });

  it('a chain through a middle step’s last event: the session is counted exactly, the player settled', async () => {
    // level at 100, 1,900 (the hour's first from its half hour on) and 2,500 (its last), start at
    // 2,000, finish at 3,000: only level 2,500 lies between start and finish. A session's lower
    // bound leaves out a middle step's last events (ENTITY_BOUNDS.middleLasts) and stops at 1,
    // below the 3 steps present: the session is listed and counted exactly. A player's reads it.
    const events = [
      ['level', 100],
      ['level', 1900],
      ['start', 2000],
      ['level', 2500],
      ['finish', 3000],
    ] as const;
    await expectCounted(events, [1, 1, 1], { player: 0, session: 1 });
  });

  it('a chain from an hour’s last start, over the hour’s end: the lower bound misses it, the hour marks do not', async () => {
    // start at 10 and 1,500 (both before the half hour: no edge 2), level at 1,600, finish at
    // 5,000 in the next hour. Only start 1,500 → level 1,600 → finish 5,000 chains within the
    // hour's window; the lower bound leaves out an hour's last start and chains from 10 to level
    // only (2), the hour marks allow 3: the player is listed and counted exactly.
    const { fromRollups, fromEvents, listed } = await journey([
      ['start', 10],
      ['start', 1500],
      ['level', 1600],
      ['finish', 5000],
    ]);
    expect(fromEvents.steps.map((s) => s.count)).toEqual([1, 1, 1]);
    expect(fromRollups).toEqual(fromEvents);
    expect(listed).toHaveLength(1);
  });

  it('two steps in one second: the lower bound never chains them, the player is counted exactly', async () => {
    // windowFunnel orders a second's events arbitrarily (events and funnel_steps may differ), so
    // a tie is left to funnel_steps' exact count rather than decided either way by the bounds.
    const { fromRollups, fromFunnelSteps, listed } = await journey([
      ['start', 100],
      ['level', 100],
      ['finish', 200],
    ]);
    expect(listed).toHaveLength(1);
    expect(fromRollups).toEqual(fromFunnelSteps);
  });

  it('steps out of order hours apart: the hour marks settle the player, the session is counted exactly', async () => {
    // finish in the first hour, start two hours later and nothing after it: level 1. A session's
    // upper bound is the steps present (all three), so its bounds differ and it is listed; the
    // player's hour marks put finish before start and settle it at 1.
    const events = [
      ['finish', 100],
      ['level', 200],
      ['start', 7_300],
    ] as const;
    await expectCounted(events, [1, 0, 0], { player: 0, session: 1 });
  });

  it('a journey the bounds settle is not read again from funnel_steps', async () => {
    const { fromRollups, fromEvents, listed } = await journey([
      ['start', 100],
      ['level', 160],
      ['finish', 300],
      ['level', 4000],
    ]);
    expect(fromEvents.steps.map((s) => s.count)).toEqual([1, 1, 1]);
    expect(fromRollups).toEqual(fromEvents);
    expect(listed).toHaveLength(0);
  });
});

describe('builds', () => {
  const compare = (minSamples: number) =>
    compareBuilds(clickhouse, {
      projectId: buildsProject,
      base: 'b1',
      target: 'b2',
      days: 30,
      thresholdPercent: 5,
      minSamples,
      now: NOW,
    });

  it('lists builds with performance data, most recently seen first', async () => {
    const builds = await queryBuilds(clickhouse, { projectId: buildsProject, days: 30, limit: 50, now: NOW });
    expect(builds.map((b) => [b.buildId, b.samples, b.maps, b.platforms])).toEqual([
      ['b2', 40, 1, ['pc']],
      ['b1', 45, 2, ['pc']],
    ]);
  });

  it('compares two builds: stats, deltas and a verdict per metric, overall and per common map', async () => {
    const result = await compare(30);
    const m = result.overall.metrics;
    expect(result.overall.base.fps).toEqual({
      samples: 45,
      avg: 60,
      p50: reportedQuantile(60),
      p95: reportedQuantile(60),
      p99: reportedQuantile(60),
    });
    expect(m.fps.delta.avg).toBeCloseTo(-10, 5);
    expect(m.fps.deltaPercent).toBeCloseTo(-16.667, 2);
    expect(m.fps.verdict).toBe('worse');
    expect(m.frame_time.verdict).toBe('unchanged'); // +2.5 %: below the 5 % noise threshold
    expect(m.memory.verdict).toBe('better'); // 1000 MB → 800 MB
    expect(result.overall.target.memory.avg).toBeCloseTo(800, 6);
    expect(m.game_thread.verdict).toBe('unchanged'); // same mean (8 ms)…
    expect(m.game_thread.delta.p95).toBeCloseTo(reportedQuantile(12) - reportedQuantile(8), 5); // …but a wider tail: 12 vs 8
    expect(m.gpu_time).toEqual({
      delta: { avg: null, p50: null, p95: null, p99: null },
      deltaPercent: null,
      verdict: null,
    });
    expect(result.maps.map((x) => x.mapId)).toEqual(['m1']);
    expect(result.maps[0]!.metrics.fps.verdict).toBe('worse');
  });

  it('gives no verdict below the minimum sample count', async () => {
    const result = await compare(41);
    expect(result.overall.metrics.fps.verdict).toBeNull();
  });
});
