import type { TelemetryEventInput } from '@framedeck/proto';
import { newPlayer, sessionTick, startSession, type Player } from './session.js';
import { BUILDS } from './world.js';

export { FUNNEL } from './session.js';

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

/**
 * Simulated telemetry of `players` players on one map for `minutes`, in time order: sessions
 * (session_start ... session_end), the match funnel (match_start → checkpoint_1 →
 * checkpoint_2 → match_end, with drop-off), purchases and deaths, and a perf_sample every
 * `sampleSeconds` with position, camera yaw/pitch, fps, frame/GPU/thread times and memory that
 * depend on the region, build and platform (see world.ts). One player in ten is an automated
 * QA bot (source = automated). Players play back to back, each session on a random build of
 * BUILDS; simulateLiveGame is the month of a game with releases, cycles and returning players.
 */
export function* simulateTelemetry(options: SimulationOptions): Generator<TelemetryEventInput> {
  const seed = options.seed ?? 1;
  const sampleSeconds = options.sampleSeconds ?? 1;
  const ticks = Math.max(1, Math.round((options.minutes * 60) / sampleSeconds));
  const startUs = Math.round((options.startTimeMs ?? Date.now() - options.minutes * 60_000) * 1000);
  const mapId = options.mapId ?? 'dust_valley';
  // Staggered starts, so the first minute is not one burst of session_start.
  const players = Array.from({ length: options.players }, (_, i) => {
    const player = newPlayer(seed, i, { automated: i % 10 === 9 });
    return { player, nextSessionTick: Math.floor(player.rng.between(0, 20)) };
  });

  for (let tick = 0; tick < ticks; tick++) {
    const tickUs = startUs + tick * sampleSeconds * 1_000_000;
    for (let p = 0; p < players.length; p++) {
      const state = players[p]!;
      // Players' clocks are spread over the tick so events do not share timestamps.
      const timestampUs = tickUs + Math.floor((p / players.length) * sampleSeconds * 1_000_000);
      if (!state.player.session) {
        if (tick < state.nextSessionTick) continue;
        startBackToBackSession(state.player, tick, sampleSeconds);
      }
      yield* sessionTick(state.player, tick, timestampUs, mapId, sampleSeconds);
      if (!state.player.session) {
        state.nextSessionTick = tick + Math.round(state.player.rng.between(20, 90) / sampleSeconds);
      }
    }
  }
}

/** A 3–8 minute session on a random build. */
function startBackToBackSession(player: Player, tick: number, sampleSeconds: number): void {
  const lengthTicks = Math.max(6, Math.round(player.rng.between(180, 480) / sampleSeconds));
  startSession(player, tick, player.rng.pick(BUILDS), lengthTicks);
}
