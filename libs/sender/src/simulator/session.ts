import { TelemetrySource, type TelemetryEventInput } from '@framedeck/proto';
import { Prng } from './prng.js';
import { BRIDGE, PLATFORM_WEIGHTS, PLATFORMS, RIVER, samplePerformance, WORLD } from './world.js';

/**
 * One simulated player's play sessions on a map, shared by the short simulation
 * (telemetry.simulator.ts) and the month of a live game (live-game.simulator.ts): a session
 * is session_start, match_start, a perf_sample per tick while the player walks between
 * waypoints (crossing the river by its bridge), checkpoints, purchases and deaths, then
 * match_end or match_abandon and session_end.
 */

export type Session = {
  id: string;
  build: string;
  startTick: number;
  endTick: number;
  checkpoint1Tick: number;
  checkpoint2Tick: number;
  reachesCheckpoint1: boolean;
  reachesCheckpoint2: boolean;
  completes: boolean;
};

export type Player = {
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
  sessions: number;
  /** Where an automated run walks, in order (players pick random waypoints when absent). */
  route?: readonly (readonly [number, number])[];
};

/** Funnel steps, in order; each step is reached by a share of those who reached the one before. */
export const FUNNEL = ['match_start', 'checkpoint_1', 'checkpoint_2', 'match_end'] as const;

/** A player with its own random stream (seed, index), at a random place on land. */
export function newPlayer(
  seed: number,
  index: number,
  fields: Partial<Pick<Player, 'id' | 'platform' | 'automated' | 'route'>> = {},
): Player {
  const rng = new Prng(Prng.derive(seed, index));
  const [x, y] = landPoint(rng);
  return {
    id: fields.id ?? `player-${rng.hex(12)}`,
    rng,
    platform: fields.platform ?? rng.pick(PLATFORM_WEIGHTS),
    automated: fields.automated ?? false,
    x,
    y,
    targetX: x,
    targetY: y,
    speed: rng.between(4, 9),
    heading: 0,
    session: undefined,
    sessions: 0,
    route: fields.route,
  };
}

/** Starts a session of `lengthTicks` ticks at `tick` (the funnel's outcome is decided here). */
export function startSession(player: Player, tick: number, build: string, lengthTicks: number): Session {
  const rng = player.rng;
  const reachesCheckpoint1 = rng.chance(0.85);
  const reachesCheckpoint2 = reachesCheckpoint1 && rng.chance(0.7);
  player.sessions++;
  player.session = {
    id: `${player.id.slice(player.id.indexOf('-') + 1)}-${player.sessions}-${rng.hex(8)}`,
    build,
    startTick: tick,
    endTick: tick + lengthTicks,
    checkpoint1Tick: tick + Math.round(lengthTicks * 0.3),
    checkpoint2Tick: tick + Math.round(lengthTicks * 0.65),
    reachesCheckpoint1,
    reachesCheckpoint2,
    completes: reachesCheckpoint2 && rng.chance(0.8),
  };
  return player.session;
}

/**
 * The events of one tick of the player's session (its first tick opens it, its last closes it
 * and clears `player.session`).
 */
export function* sessionTick(
  player: Player,
  tick: number,
  timestampUs: number,
  mapId: string,
  sampleSeconds: number,
): Generator<TelemetryEventInput> {
  const session = player.session!;
  const rng = player.rng;
  if (tick === session.startTick) {
    yield named(player, 'session_start', timestampUs, mapId);
    yield named(player, 'match_start', timestampUs + 1, mapId, { mode: rng.pick(MODES) });
  }
  move(player, sampleSeconds);
  yield perfSample(player, timestampUs, mapId, (tick - session.startTick) * sampleSeconds);

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
    const durationS = (tick - session.startTick) * sampleSeconds;
    yield named(player, last, timestampUs + 5, mapId, {}, { duration_s: durationS });
    yield named(player, 'session_end', timestampUs + 6, mapId);
    player.session = undefined;
  }
}

/** A random point on the map, off the river and its banks. */
export function landPoint(rng: Prng): [number, number] {
  for (;;) {
    const x = rng.between(WORLD.minX, WORLD.maxX);
    const y = rng.between(WORLD.minY, WORLD.maxY);
    if (Math.abs(y - RIVER.y) > BRIDGE_END_OFFSET + 4) return [x, y];
  }
}

/**
 * Walks toward the next waypoint; on arrival takes the next one (of its route, or a random
 * one). A waypoint across the river is reached over the bridge: first its near end, then its
 * far end, then the waypoint.
 */
function move(player: Player, seconds: number): void {
  const rng = player.rng;
  const reach = player.speed * seconds;
  if (Math.hypot(player.targetX - player.x, player.targetY - player.y) < reach) {
    [player.targetX, player.targetY] = nextWaypoint(player);
  }
  const [goalX, goalY] = towardTarget(player);
  const dx = goalX - player.x;
  const dy = goalY - player.y;
  const distance = Math.hypot(dx, dy) || 1;
  const step = Math.min(distance, reach);
  player.x = clamp(player.x + (dx / distance) * step + rng.gaussian(), WORLD.minX, WORLD.maxX);
  player.y = clamp(player.y + (dy / distance) * step + rng.gaussian(), WORLD.minY, WORLD.maxY);
  // 0 = North (+y), clockwise.
  player.heading = (((Math.atan2(dx, dy) * 180) / Math.PI + 360) % 360) % 360;
}

function nextWaypoint(player: Player): [number, number] {
  if (!player.route) return landPoint(player.rng);
  const next =
    player.route[
      (player.route.findIndex(([x, y]) => x === player.targetX && y === player.targetY) + 1) % player.route.length
    ]!;
  return [next[0], next[1]];
}

/**
 * The point to walk to now: the target, or a bridge end when the river lies between (on the
 * bridge, the end on the target's side).
 */
function towardTarget(player: Player): [number, number] {
  const side = (y: number) => Math.sign(y - RIVER.y) || 1;
  const bridgeEnd = (s: number): [number, number] => [BRIDGE.x, RIVER.y + s * BRIDGE_END_OFFSET];
  const targetSide = side(player.targetY);
  if (Math.abs(player.y - RIVER.y) < RIVER.halfWidth + 4) return bridgeEnd(targetSide);
  if (side(player.y) === targetSide) return [player.targetX, player.targetY];
  const [nearX, nearY] = bridgeEnd(side(player.y));
  return Math.hypot(player.x - nearX, player.y - nearY) < player.speed * 2 ? bridgeEnd(targetSide) : [nearX, nearY];
}

/** How far from the river's middle a bridge end is; waypoints stay farther out. */
const BRIDGE_END_OFFSET = RIVER.halfWidth + 8;

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

function perfSample(player: Player, timestampUs: number, mapId: string, sessionSeconds: number): TelemetryEventInput {
  const perf = samplePerformance(
    player.x,
    player.y,
    player.session!.build,
    player.platform,
    player.rng,
    sessionSeconds,
  );
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
