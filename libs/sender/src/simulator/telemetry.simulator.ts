import { TelemetrySource, type TelemetryEventInput } from '@framedeck/proto';
import { Prng } from './prng.js';
import { BUILDS, PLATFORM_WEIGHTS, PLATFORMS, samplePerformance, WORLD } from './world.js';

export type SimulationOptions = {
  /** Same seed and options, same events (fixtures can rely on it). */
  seed?: number;
  players: number;
  /** Simulated play time. */
  minutes: number;
  /** When simulated time starts (default: `minutes` before now, so the events are recent). */
  startTimeMs?: number;
  mapId?: string;
  /** Seconds between a player's performance samples. */
  sampleSeconds?: number;
};

type Session = {
  id: string;
  build: string;
  endTick: number;
  checkpoint1Tick: number;
  checkpoint2Tick: number;
  reachesCheckpoint1: boolean;
  reachesCheckpoint2: boolean;
  completes: boolean;
};

type Player = {
  id: string;
  rng: Prng;
  platform: string;
  automated: boolean;
  x: number;
  y: number;
  targetX: number;
  targetY: number;
  speed: number;
  heading: number;
  session: Session | undefined;
  nextSessionTick: number;
  sessions: number;
};

/** Funnel steps, in order; each step is reached by a share of those who reached the one before. */
export const FUNNEL = ['match_start', 'checkpoint_1', 'checkpoint_2', 'match_end'] as const;

/**
 * Simulated telemetry of `players` players on one map for `minutes`, in time order: sessions
 * (session_start ... session_end), the match funnel (match_start → checkpoint_1 →
 * checkpoint_2 → match_end, with drop-off), purchases and deaths, and a perf_sample every
 * `sampleSeconds` with position, camera yaw/pitch, fps, frame/GPU/thread times and memory that
 * depend on the region, build and platform (see world.ts). One player in ten is an automated
 * QA bot (source = automated).
 */
export function* simulateTelemetry(options: SimulationOptions): Generator<TelemetryEventInput> {
  const seed = options.seed ?? 1;
  const sampleSeconds = options.sampleSeconds ?? 1;
  const ticks = Math.max(1, Math.round((options.minutes * 60) / sampleSeconds));
  const startUs = Math.round((options.startTimeMs ?? Date.now() - options.minutes * 60_000) * 1000);
  const mapId = options.mapId ?? 'dust_valley';
  const players = Array.from({ length: options.players }, (_, i) => newPlayer(seed, i));

  for (let tick = 0; tick < ticks; tick++) {
    const tickUs = startUs + tick * sampleSeconds * 1_000_000;
    for (let p = 0; p < players.length; p++) {
      const player = players[p]!;
      // Players' clocks are spread over the tick so events do not share timestamps.
      const timestampUs = tickUs + Math.floor((p / players.length) * sampleSeconds * 1_000_000);
      yield* playerTick(player, tick, timestampUs, mapId, sampleSeconds);
    }
  }
}

function newPlayer(seed: number, index: number): Player {
  const rng = new Prng(Prng.derive(seed, index));
  const x = rng.between(WORLD.minX, WORLD.maxX);
  const y = rng.between(WORLD.minY, WORLD.maxY);
  return {
    id: `player-${rng.hex(12)}`,
    rng,
    platform: rng.pick(PLATFORM_WEIGHTS),
    automated: index % 10 === 9,
    x,
    y,
    targetX: x,
    targetY: y,
    speed: rng.between(4, 9),
    heading: 0,
    session: undefined,
    // Staggered starts, so the first minute is not one burst of session_start.
    nextSessionTick: Math.floor(rng.between(0, 20)),
    sessions: 0,
  };
}

function* playerTick(
  player: Player,
  tick: number,
  timestampUs: number,
  mapId: string,
  sampleSeconds: number,
): Generator<TelemetryEventInput> {
  const rng = player.rng;
  if (!player.session) {
    if (tick < player.nextSessionTick) return;
    player.session = newSession(player, tick, sampleSeconds);
    yield named(player, 'session_start', timestampUs, mapId);
    yield named(player, 'match_start', timestampUs + 1, mapId, { mode: rng.pick(MODES) });
  }
  const session = player.session;
  move(player, sampleSeconds);
  yield perfSample(player, timestampUs, mapId);

  if (tick === session.checkpoint1Tick && session.reachesCheckpoint1) {
    yield named(player, 'checkpoint_1', timestampUs + 2, mapId);
  }
  if (tick === session.checkpoint2Tick && session.reachesCheckpoint2) {
    yield named(player, 'checkpoint_2', timestampUs + 2, mapId);
  }
  if (rng.chance(0.004 * sampleSeconds)) {
    const item = rng.pick(ITEMS);
    yield named(
      player,
      'purchase',
      timestampUs + 3,
      mapId,
      { item: item.name, currency: 'gems' },
      { price: item.price },
    );
  }
  if (rng.chance(0.006 * sampleSeconds)) {
    yield named(player, 'player_death', timestampUs + 4, mapId, { cause: rng.pick(CAUSES) });
  }
  if (tick >= session.endTick) {
    const last = session.completes ? 'match_end' : 'match_abandon';
    yield named(player, last, timestampUs + 5, mapId, {}, { duration_s: (tick - session.endTick) * sampleSeconds });
    yield named(player, 'session_end', timestampUs + 6, mapId);
    player.session = undefined;
    player.nextSessionTick = tick + Math.round(rng.between(20, 90) / sampleSeconds);
  }
}

function newSession(player: Player, tick: number, sampleSeconds: number): Session {
  const rng = player.rng;
  const length = Math.max(6, Math.round(rng.between(180, 480) / sampleSeconds));
  const reachesCheckpoint1 = rng.chance(0.85);
  const reachesCheckpoint2 = reachesCheckpoint1 && rng.chance(0.7);
  player.sessions++;
  return {
    id: `${player.id.slice(7)}-${player.sessions}-${rng.hex(8)}`,
    build: rng.pick(BUILDS),
    endTick: tick + length,
    checkpoint1Tick: tick + Math.round(length * 0.3),
    checkpoint2Tick: tick + Math.round(length * 0.65),
    reachesCheckpoint1,
    reachesCheckpoint2,
    completes: reachesCheckpoint2 && rng.chance(0.8),
  };
}

/** Walks toward a waypoint; picks a new one on arrival. */
function move(player: Player, seconds: number): void {
  const rng = player.rng;
  let dx = player.targetX - player.x;
  let dy = player.targetY - player.y;
  if (Math.hypot(dx, dy) < player.speed * seconds) {
    player.targetX = rng.between(WORLD.minX, WORLD.maxX);
    player.targetY = rng.between(WORLD.minY, WORLD.maxY);
    dx = player.targetX - player.x;
    dy = player.targetY - player.y;
  }
  const distance = Math.hypot(dx, dy) || 1;
  const step = Math.min(distance, player.speed * seconds);
  player.x = clamp(player.x + (dx / distance) * step + rng.gaussian(), WORLD.minX, WORLD.maxX);
  player.y = clamp(player.y + (dy / distance) * step + rng.gaussian(), WORLD.minY, WORLD.maxY);
  // 0 = North (+y), clockwise.
  player.heading = (((Math.atan2(dx, dy) * 180) / Math.PI + 360) % 360) % 360;
}

function base(player: Player, eventName: string, timestampUs: number, mapId: string): TelemetryEventInput {
  const session = player.session!;
  return {
    eventName,
    timestampUs,
    sessionId: session.id,
    playerId: player.id,
    mapId,
    position: { x: round1(player.x), y: round1(player.y), z: 0 },
    buildId: session.build,
    platform: player.platform,
    engineVersion: PLATFORMS[player.platform]!.engine,
    source: player.automated ? TelemetrySource.TELEMETRY_SOURCE_AUTOMATED : TelemetrySource.TELEMETRY_SOURCE_PLAYER,
  };
}

function perfSample(player: Player, timestampUs: number, mapId: string): TelemetryEventInput {
  const perf = samplePerformance(player.x, player.y, player.session!.build, player.platform, player.rng);
  return {
    ...base(player, 'perf_sample', timestampUs, mapId),
    ...perf,
    // Camera presence is kept: only samples carry a camera; named events leave it absent.
    cameraYaw: Math.round(player.heading * 10) / 10,
    cameraPitch: Math.round(player.rng.between(-20, 15) * 10) / 10,
  };
}

function named(
  player: Player,
  eventName: string,
  timestampUs: number,
  mapId: string,
  attributes: Record<string, string> = {},
  metrics: Record<string, number> = {},
): TelemetryEventInput {
  return { ...base(player, eventName, timestampUs, mapId), attributes, metrics };
}

const MODES = [
  ['ranked', 0.4],
  ['casual', 0.6],
] as const;
const CAUSES = [
  ['fall', 0.2],
  ['enemy', 0.7],
  ['drowning', 0.1],
] as const;
const ITEMS: readonly (readonly [{ name: string; price: number }, number])[] = [
  [{ name: 'skin_ember', price: 4.99 }, 0.3],
  [{ name: 'battle_pass', price: 9.99 }, 0.2],
  [{ name: 'gem_pack_small', price: 1.99 }, 0.5],
];

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
const round1 = (v: number) => Math.round(v * 10) / 10;
