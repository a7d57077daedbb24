import { TelemetrySource, type TelemetryEventInput } from '@framedeck/proto';
import { describe, expect, it } from 'vitest';
import { RUN_ATTRIBUTES } from '../run-contract.js';
import { simulateLiveGame } from './live-game.simulator.js';
import { BRIDGE, RELEASES, RIVER } from './world.js';

const DAY_MS = 86_400_000;
// A Tuesday, 15:00 UTC: the month before it holds four weekends.
const END_MS = Date.UTC(2026, 10, 24, 15, 0, 0);
const options = { seed: 5, players: 80, days: 30, endTimeMs: END_MS };
// ~70,000 events; generated once for every check below.
const events = [...simulateLiveGame(options)];

const dayOf = (e: TelemetryEventInput) => Math.floor(Number(e.timestampUs) / 1000 / DAY_MS);
const perf = events.filter((e) => e.eventName === 'perf_sample');
const isBot = (e: TelemetryEventInput) => e.source === TelemetrySource.TELEMETRY_SOURCE_AUTOMATED;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('simulateLiveGame: a month of a live game', { timeout: 60_000 }, () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const small = { players: 10, days: 4, endTimeMs: END_MS };
    const a = [...simulateLiveGame({ ...small, seed: 1 })];
    expect([...simulateLiveGame({ ...small, seed: 1 })]).toEqual(a);
    expect([...simulateLiveGame({ ...small, seed: 2 })]).not.toEqual(a);
  });

  it('begins with a whole UTC day, whatever time of day the period ends', () => {
    // The first day holds the QA devices' 02:00 UTC run, though the period ends at 15:00.
    const firstDay = Math.min(...events.map(dayOf));
    expect(events.some((e) => dayOf(e) === firstDay && isBot(e))).toBe(true);
    const late = [...simulateLiveGame({ ...options, endTimeMs: END_MS + 8 * 3_600_000 })];
    expect(Math.min(...late.map(dayOf))).toBe(firstDay);
  });

  it('fills every day of the period, oldest first, within the 30 days ingest accepts', () => {
    const times = events.map((e) => Number(e.timestampUs) / 1000);
    expect(Math.min(...times)).toBeGreaterThan(END_MS - 30 * DAY_MS);
    expect(Math.max(...times)).toBeLessThanOrEqual(END_MS);
    const days = events.map(dayOf);
    expect(days.every((d, i) => i === 0 || d >= days[i - 1]!)).toBe(true);
    expect(new Set(days).size).toBeGreaterThanOrEqual(30);
  });

  it('has more players at weekends and in the evening than on weekdays and at night', () => {
    const playersByDay = new Map<number, Set<string>>();
    for (const e of events) {
      if (!isBot(e)) playersByDay.set(dayOf(e), (playersByDay.get(dayOf(e)) ?? new Set()).add(e.playerId!));
    }
    // Whole days only: the first and the last are cut by the period.
    const whole = [...playersByDay].slice(1, -1);
    const weekend = (day: number) => [0, 6].includes(new Date(day * DAY_MS).getUTCDay());
    const dau = (pick: boolean) => mean(whole.filter(([d]) => weekend(d) === pick).map(([, s]) => s.size));
    expect(dau(true)).toBeGreaterThan(dau(false) * 1.15);
    const starts = events.filter((e) => e.eventName === 'session_start' && !isBot(e));
    const hour = (e: TelemetryEventInput) => new Date(Number(e.timestampUs) / 1000).getUTCHours();
    const evening = starts.filter((e) => hour(e) >= 18 && hour(e) < 22).length;
    const night = starts.filter((e) => hour(e) >= 3 && hour(e) < 7).length;
    expect(evening).toBeGreaterThan(night * 4);
  });

  it('brings players back on later days, fewer as time passes (retention has a shape)', () => {
    const days = new Map<string, Set<number>>();
    for (const e of events) if (!isBot(e)) days.set(e.playerId!, (days.get(e.playerId!) ?? new Set()).add(dayOf(e)));
    const activeDays = [...days.values()].map((s) => s.size);
    expect(activeDays.filter((n) => n >= 2).length).toBeGreaterThan(activeDays.length * 0.4);
    expect(activeDays.filter((n) => n >= 10).length).toBeGreaterThan(0);
    expect(activeDays.filter((n) => n === 1).length).toBeGreaterThan(0);
  });

  it('releases the builds in order, each adopted by most players within a couple of days', () => {
    const players = perf.filter((e) => !isBot(e));
    expect(new Set(players.map((e) => e.buildId))).toEqual(new Set(RELEASES.map((r) => r.build)));
    for (const release of RELEASES.slice(1)) {
      const releasedMs = END_MS - release.daysBeforeEnd * DAY_MS;
      const at = (e: TelemetryEventInput) => Number(e.timestampUs) / 1000;
      expect(players.filter((e) => e.buildId === release.build && at(e) < releasedMs)).toEqual([]);
      const threeDaysOn = players.filter(
        (e) => at(e) >= releasedMs + 2.5 * DAY_MS && at(e) < releasedMs + 3.5 * DAY_MS,
      );
      if (threeDaysOn.length === 0) continue;
      expect(threeDaysOn.filter((e) => e.buildId === release.build).length).toBeGreaterThan(threeDaysOn.length * 0.8);
    }
  });

  it('makes the latest build slower on the bridge only', () => {
    const [previous, latest] = RELEASES.slice(-2).map((r) => r.build);
    const frameTime = (build: string | undefined, near: boolean) =>
      mean(
        perf
          .filter((e) => e.buildId === build && e.platform === 'pc')
          .filter((e) => Math.hypot(e.position!.x! - BRIDGE.x, e.position!.y! - RIVER.y) < 40 === near)
          .map((e) => e.frameTimeMs!),
      );
    expect(frameTime(latest, true)).toBeGreaterThan(frameTime(previous, true) * 1.3);
    expect(frameTime(latest, false)).toBeCloseTo(frameTime(previous, false), 0);
  });

  it('leaks memory over a session on Switch only', () => {
    const growth = new Map<string, { platform: string; first: number; last: number }>();
    for (const e of perf) {
      const session = growth.get(e.sessionId!) ?? { platform: e.platform!, first: e.memoryUsedBytes!, last: 0 };
      session.last = e.memoryUsedBytes!;
      growth.set(e.sessionId!, session);
    }
    const meanGrowthMb = (platform: string) =>
      mean([...growth.values()].filter((s) => s.platform === platform).map((s) => (s.last - s.first) / 2 ** 20));
    expect(meanGrowthMb('switch')).toBeGreaterThan(100);
    expect(Math.abs(meanGrowthMb('pc'))).toBeLessThan(40);
  });

  it('runs a scripted tour every night as an automated run with the run contract’s attributes', () => {
    const runs = events.filter((e) => e.eventName === 'session_start' && isBot(e));
    const nights = new Set(runs.map(dayOf));
    expect(nights.size).toBeGreaterThanOrEqual(29);
    for (const run of runs) {
      expect(run.playerId).toMatch(/^qa-bot-/);
      expect(new Date(Number(run.timestampUs) / 1000).getUTCHours()).toBe(2);
      expect(run.attributes).toMatchObject({
        [RUN_ATTRIBUTES.scenario]: 'nightly_tour',
        [RUN_ATTRIBUTES.branch]: 'main',
      });
    }
    // Players are players: only the QA devices' events are automated.
    expect(events.filter(isBot).every((e) => e.playerId!.startsWith('qa-bot-'))).toBe(true);
    // Release candidates: the devices run the latest build before players get it.
    const latest = RELEASES.at(-1)!;
    const firstBotRun = Math.min(
      ...runs.filter((e) => e.buildId === latest.build).map((e) => Number(e.timestampUs) / 1000),
    );
    expect(firstBotRun).toBeLessThan(END_MS - latest.daysBeforeEnd * DAY_MS);
  });
});
