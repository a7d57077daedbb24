import type { FixtureEvent } from './event-fixtures.js';

/** The event names the generator picks from. */
export const RANDOM_TELEMETRY_NAMES = ['frame', 'kill', 'death', 'loot'] as const;

/**
 * Random telemetry for the rollup-equality checks, reproducible from its seed: positions
 * anywhere (exactly on 5-unit grid lines, on the edges of a map of x −100..100 and y 0..50, and
 * outside it, also on the grid line 5 past the max edge: in the edge's 10-unit cell, but not
 * on its 10-unit line), events with and without frame samples and other metrics, several builds,
 * platforms, sources, names and maps, at times over the 40 days before `now` (a few 36 hours
 * later: after `now`, outside every range).
 */
export function randomTelemetry(options: {
  projectId: string;
  count: number;
  now: Date;
  seed: number;
}): FixtureEvent[] {
  let seed = options.seed;
  const next = (n: number) => Math.floor(((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * n);
  const pick = <T>(xs: readonly T[]): T => xs[next(xs.length)]!;
  /**
   * A coordinate: often exactly on a grid line (one past the max edge included) or an edge (the
   * rollup's hard cases), else anywhere around the map.
   */
  const coordinate = (min: number, max: number) =>
    pick([min, max, min + 5 * next((max - min) / 5 + 2), min - 3 + next((max - min + 6) * 100) / 100]);
  return Array.from({ length: options.count }, () => {
    const sample = next(5) !== 0;
    return {
      projectId: options.projectId,
      eventName: pick(RANDOM_TELEMETRY_NAMES),
      at: new Date(options.now.getTime() - next(40 * 86_400) * 1000 + 36 * 3_600_000 * (next(20) === 0 ? 1 : 0)),
      playerId: next(8) === 0 ? undefined : `p${next(60)}`,
      sessionId: `s${next(200)}`,
      mapId: pick(['arena', 'arena', 'harbour']),
      position: next(10) === 0 ? undefined : [coordinate(-100, 100), coordinate(0, 50), next(30)],
      fps: sample && next(4) !== 0 ? 20 + next(100) : undefined,
      frameTimeMs: sample ? 5 + next(600) / 10 : undefined,
      memoryBytes: next(3) === 0 ? undefined : (500 + next(3000)) * 1_048_576,
      gpuTimeMs: next(2) === 0 ? undefined : 1 + next(200) / 10,
      gameThreadMs: next(2) === 0 ? undefined : 2 + next(100) / 10,
      renderThreadMs: next(2) === 0 ? undefined : 2 + next(100) / 10,
      buildId: pick(['1.0', '1.1', '1.2', '']),
      platform: pick(['pc', 'ps5', 'switch', '']),
      source: pick(['player', 'player', 'automated', 'unspecified'] as const),
    };
  });
}
