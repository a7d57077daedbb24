import type { TelemetryEventInput } from '@framedeck/proto';
import { applyRunContext } from '../run-contract.js';
import { Prng } from './prng.js';
import { landPoint, newPlayer, sessionTick, startSession, type Player } from './session.js';
import { RELEASES } from './world.js';

export type LiveGameOptions = {
  /** Same seed and options, same events. */
  seed?: number;
  /** The player base: everyone who plays at some point (most join early, many churn). */
  players: number;
  /**
   * Simulated days, ending at `endTimeMs` (at most 30: the oldest event ingest accepts): the
   * whole UTC days that begin inside the period, then the last day up to `endTimeMs`.
   */
  days: number;
  /** When the simulated period ends (default now). */
  endTimeMs?: number;
  mapId?: string;
  /** Seconds between a player's performance samples (default 10). */
  sampleSeconds?: number;
};

const DAY_MS = 86_400_000;
/**
 * The period starts this much later than `days` before its end: events are sent oldest first,
 * and must still be younger than the consumer's 30-day limit when they arrive.
 */
const START_MARGIN_MS = 3_600_000;

/**
 * Players by UTC hour of day: few at night, most in the evening. Relative weights, 0–23.
 */
const HOUR_WEIGHTS = [3, 2, 1, 1, 1, 1, 1, 2, 3, 4, 5, 5, 6, 6, 6, 7, 8, 10, 12, 14, 14, 12, 9, 5];

/** How long players keep playing: most drop off within days, a loyal few stay (days, share). */
const LOYALTY = [
  [1.5, 0.45],
  [6, 0.35],
  [40, 0.2],
] as const;

/** Days a player waits, on average, before installing a new build (most within a couple of days). */
const MEAN_UPDATE_LAG_DAYS = 0.8;

/**
 * Nightly automated runs: one QA device per platform walks a scripted tour (market, over the
 * bridge, forest) at 02:00 UTC on the newest build, from two nights before its release (release
 * candidates are tested before players get them). They carry the run contract's attributes
 * (run.branch, run.commit, run.scenario), as a CI job's events do.
 */
const NIGHTLY = {
  platforms: ['pc', 'ps5', 'switch'],
  hourUtc: 2,
  minutes: 12,
  candidateDays: 2,
  scenario: 'nightly_tour',
  branch: 'main',
  route: [
    [120, 120],
    [720, 300],
    [500, 300],
    [500, 800],
    [250, 700],
    [880, 880],
  ],
} as const;

type Member = {
  player: Player;
  joinDay: number;
  dailyChance: number;
  loyaltyDays: number;
  /** Per release: when this player installs it (ms). */
  installedAtMs: number[];
};

type PlannedSession = { member: Member; startMs: number; lengthTicks: number; build: string; nightly: boolean };

/**
 * A month of a live game on one map, oldest day first (events of a day in time order): players
 * join (most at launch, more at weekends and on release days), return on later days less and
 * less often (retention and stickiness have shapes), play more in the evening and at weekends,
 * and install each new build of RELEASES within a couple of days; the latest build is slower
 * on the bridge, Switch leaks memory over a session (world.ts), and QA devices run a scripted
 * tour every night (source automated). Deterministic for a seed and options.
 */
export function* simulateLiveGame(options: LiveGameOptions): Generator<TelemetryEventInput> {
  const seed = options.seed ?? 1;
  const sampleSeconds = options.sampleSeconds ?? 10;
  const mapId = options.mapId ?? 'dust_valley';
  const endMs = options.endTimeMs ?? Date.now();
  // The period starts at a UTC midnight, so its first day is whole, as every day but the last
  // is: otherwise the first day (the launch, which draws the most players) held only the hours
  // after the run's time of day, and its cohort and platform mix depended on when one ran.
  const startMs = Math.ceil((endMs - options.days * DAY_MS + START_MARGIN_MS) / DAY_MS) * DAY_MS;
  const firstDayMs = startMs;
  const dayCount = Math.floor((endMs - firstDayMs) / DAY_MS) + 1;
  const releaseMs = RELEASES.map((r) => endMs - r.daysBeforeEnd * DAY_MS);

  const joinRng = new Prng(Prng.derive(seed, -1));
  const joinWeights = Array.from(
    { length: dayCount },
    (_, day) => [day, joinWeight(day, firstDayMs, releaseMs)] as const,
  );
  const members: Member[] = Array.from({ length: options.players }, (_, i) => {
    const player = newPlayer(seed, i);
    return {
      player,
      joinDay: joinRng.pick(joinWeights),
      dailyChance: player.rng.between(0.35, 0.9),
      loyaltyDays: player.rng.pick(LOYALTY),
      installedAtMs: releaseMs.map((ms) => ms - Math.log(1 - player.rng.next()) * MEAN_UPDATE_LAG_DAYS * DAY_MS),
    };
  });
  const devices: Member[] = NIGHTLY.platforms.map((platform, i) => ({
    player: newPlayer(seed, options.players + i, {
      id: `qa-bot-${platform}`,
      platform,
      automated: true,
      route: NIGHTLY.route,
    }),
    joinDay: 0,
    dailyChance: 1,
    loyaltyDays: Infinity,
    // Devices install a build as soon as it is a release candidate.
    installedAtMs: releaseMs.map((ms) => ms - NIGHTLY.candidateDays * DAY_MS),
  }));

  for (let day = 0; day < dayCount; day++) {
    const dayMs = firstDayMs + day * DAY_MS;
    const planned = [
      ...members.flatMap((m) => playerSessions(m, day, dayMs, sampleSeconds)),
      ...devices.map((d) => nightlyRun(d, dayMs, sampleSeconds)),
    ].filter((s) => s.startMs >= startMs && s.startMs + s.lengthTicks * sampleSeconds * 1000 <= endMs);
    const events: TelemetryEventInput[] = [];
    for (const session of planned) events.push(...playSession(session, mapId, sampleSeconds));
    events.sort((a, b) => (a.timestampUs as number) - (b.timestampUs as number));
    yield* events;
  }
}

/** How likely a player's first day is this one: launch, weekends and release days draw players. */
function joinWeight(day: number, firstDayMs: number, releaseMs: readonly number[]): number {
  const dayMs = firstDayMs + day * DAY_MS;
  const launch = day === 0 ? 6 : 1;
  const weekend = isWeekend(dayMs) ? 1.5 : 1;
  const release = releaseMs.some((ms) => ms >= dayMs && ms < dayMs + DAY_MS) ? 2 : 1;
  return launch * weekend * release * Math.exp(-day / 15);
}

/** The sessions a player starts on a day: none before joining, fewer as interest fades. */
function playerSessions(member: Member, day: number, dayMs: number, sampleSeconds: number): PlannedSession[] {
  const rng = member.player.rng;
  if (day < member.joinDay) return [];
  const weekend = isWeekend(dayMs);
  if (day > member.joinDay) {
    const interest = member.dailyChance * Math.exp(-(day - member.joinDay) / member.loyaltyDays);
    if (!rng.chance(Math.min(0.95, interest * (weekend ? 1.35 : 1)))) return [];
  }
  const count = 1 + (rng.chance(0.35) ? 1 : 0) + (weekend && rng.chance(0.35) ? 1 : 0);
  const sessions: PlannedSession[] = [];
  let startMs = dayMs + rng.pick(HOURS) * 3_600_000 + rng.between(0, 3_600_000);
  for (let i = 0; i < count && startMs < dayMs + DAY_MS; i++) {
    const lengthTicks = Math.round(rng.between(8 * 60, 25 * 60) / sampleSeconds);
    sessions.push({ member, startMs, lengthTicks, build: buildAt(member, startMs), nightly: false });
    startMs += lengthTicks * sampleSeconds * 1000 + rng.between(10, 120) * 60_000;
  }
  return sessions;
}

function nightlyRun(device: Member, dayMs: number, sampleSeconds: number): PlannedSession {
  const platformIndex = NIGHTLY.platforms.indexOf(device.player.platform as (typeof NIGHTLY.platforms)[number]);
  // The devices run one after another, 15 minutes apart.
  const startMs = dayMs + NIGHTLY.hourUtc * 3_600_000 + platformIndex * 15 * 60_000;
  const lengthTicks = Math.round((NIGHTLY.minutes * 60) / sampleSeconds);
  return { member: device, startMs, lengthTicks, build: buildAt(device, startMs), nightly: true };
}

/** The newest build the player has installed at `ms` (the oldest release when none yet). */
function buildAt(member: Member, ms: number): string {
  let build = RELEASES[0]!.build;
  RELEASES.forEach((release, i) => {
    if (member.installedAtMs[i]! <= ms) build = release.build;
  });
  return build;
}

/** The events of one planned session, in time order. */
function playSession(session: PlannedSession, mapId: string, sampleSeconds: number): readonly TelemetryEventInput[] {
  const player = session.member.player;
  // A match starts at a spawn point; an automated run at the beginning of its route.
  const [x, y] = session.nightly ? NIGHTLY.route[0] : landPoint(player.rng);
  [player.x, player.y, player.targetX, player.targetY] = [x, y, x, y];
  startSession(player, 0, session.build, session.lengthTicks);
  const startUs = session.startMs * 1000;
  const events: TelemetryEventInput[] = [];
  for (let tick = 0; player.session; tick++) {
    events.push(...sessionTick(player, tick, startUs + tick * sampleSeconds * 1_000_000, mapId, sampleSeconds));
  }
  if (!session.nightly) return events;
  return applyRunContext(events, {
    branch: NIGHTLY.branch,
    commit: commitOf(session.build),
    scenario: NIGHTLY.scenario,
  });
}

/** A stable, made-up commit id per build (what a CI job would pass as FRAMEDECK_GIT_COMMIT). */
function commitOf(build: string): string {
  return new Prng(
    Prng.derive(
      0x5eed,
      [...build].reduce((h, c) => h * 31 + c.charCodeAt(0), 7),
    ),
  ).hex(12);
}

const HOURS = HOUR_WEIGHTS.map((weight, hour) => [hour, weight] as const);

function isWeekend(dayMs: number): boolean {
  const weekday = new Date(dayMs).getUTCDay();
  return weekday === 0 || weekday === 6;
}
