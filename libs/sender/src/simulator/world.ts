import type { Prng } from './prng.js';

/**
 * The simulated game's world: a 1000 x 1000 map with regions that perform differently, the
 * builds and platforms in the field, and how those combine into frame rate, frame time, GPU
 * time and memory. Chosen so that a heatmap shows hot spots and a build comparison shows a
 * regression: build 1.5.0 is slower than 1.4.2 on the bridge only. Switch leaks memory over a
 * session in every build; 1.2.0's market is slower (crowd AI, fixed in 1.3.0).
 */
export const WORLD = { minX: 0, minY: 0, maxX: 1000, maxY: 1000 } as const;

/**
 * A river crosses the map west to east (world y, half width); its one bridge (x, half width)
 * is where everyone crossing it walks, which makes the bridge a busy place on a heatmap.
 */
export const RIVER = { y: 520, halfWidth: 22 } as const;
export const BRIDGE = { x: 500, halfWidth: 18 } as const;

export type Region = {
  name: string;
  x: number;
  y: number;
  radius: number;
  /** multiplies frames per second (<1 = slower) */
  fpsFactor: number;
  gpuExtraMs: number;
  gameThreadExtraMs: number;
  memoryExtraMb: number;
  /** applies only to these builds (all when absent) */
  builds?: readonly string[];
};

export const REGIONS: readonly Region[] = [
  // Dense foliage: GPU-bound everywhere.
  {
    name: 'forest',
    x: 250,
    y: 700,
    radius: 130,
    fpsFactor: 0.55,
    gpuExtraMs: 9,
    gameThreadExtraMs: 0,
    memoryExtraMb: 300,
  },
  // Crowds of NPCs: game-thread bound.
  {
    name: 'market',
    x: 720,
    y: 300,
    radius: 110,
    fpsFactor: 0.7,
    gpuExtraMs: 1,
    gameThreadExtraMs: 7,
    memoryExtraMb: 150,
  },
  // Before 1.3.0 the market's crowd AI cost more game-thread time (fixed: a build that got better).
  {
    name: 'market',
    x: 720,
    y: 300,
    radius: 110,
    fpsFactor: 0.85,
    gpuExtraMs: 0,
    gameThreadExtraMs: 4,
    memoryExtraMb: 0,
    builds: ['1.2.0'],
  },
  // The 1.5.0 regression: a new water shader on the bridge.
  {
    name: 'bridge',
    x: BRIDGE.x,
    y: RIVER.y,
    radius: 70,
    fpsFactor: 0.5,
    gpuExtraMs: 12,
    gameThreadExtraMs: 0,
    memoryExtraMb: 900,
    builds: ['1.5.0'],
  },
];

/** The builds a short simulation (simulateTelemetry) picks from, half each. */
export const BUILDS = [
  ['1.4.2', 0.5],
  ['1.5.0', 0.5],
] as const;

/**
 * The release history of a live game (simulateLiveGame), in days before the simulation's end:
 * a build every 5–7 days (1.4.2 a hotfix), the latest with the bridge regression. A build
 * released before the simulated period is what everyone plays at its start.
 */
export const RELEASES: readonly { build: string; daysBeforeEnd: number }[] = [
  { build: '1.2.0', daysBeforeEnd: 31 },
  { build: '1.3.0', daysBeforeEnd: 24 },
  { build: '1.4.0', daysBeforeEnd: 18 },
  { build: '1.4.2', daysBeforeEnd: 12 },
  { build: '1.5.0', daysBeforeEnd: 5 },
];

type PlatformProfile = {
  baseFps: number;
  baseMemoryMb: number;
  /** Memory that grows with the time since the session began (a leak), MB per minute. */
  leakMbPerMinute: number;
  engine: string;
};
export const PLATFORMS: Readonly<Record<string, PlatformProfile>> = {
  pc: { baseFps: 110, baseMemoryMb: 5200, leakMbPerMinute: 0, engine: 'ue5.4.2' },
  ps5: { baseFps: 60, baseMemoryMb: 4600, leakMbPerMinute: 0, engine: 'ue5.4.2-ps5' },
  xbox: { baseFps: 60, baseMemoryMb: 4800, leakMbPerMinute: 0, engine: 'ue5.4.2-gdk' },
  switch: { baseFps: 30, baseMemoryMb: 2600, leakMbPerMinute: 12, engine: 'ue5.4.2-nx' },
};
export const PLATFORM_WEIGHTS = [
  ['pc', 0.45],
  ['ps5', 0.25],
  ['xbox', 0.2],
  ['switch', 0.1],
] as const;

export type PerformanceSample = {
  fps: number;
  frameTimeMs: number;
  gpuTimeMs: number;
  gameThreadMs: number;
  renderThreadMs: number;
  memoryUsedBytes: number;
};

/**
 * Frame timing and memory at (x, y) for a build and platform, `sessionSeconds` into a session
 * (memory leaks with it on some platforms), with per-frame noise.
 */
export function samplePerformance(
  x: number,
  y: number,
  build: string,
  platform: string,
  rng: Prng,
  sessionSeconds = 0,
): PerformanceSample {
  const profile = PLATFORMS[platform]!;
  let fpsFactor = 1;
  let gpuExtra = 0;
  let gameExtra = 0;
  let memoryMb = profile.baseMemoryMb + (profile.leakMbPerMinute * sessionSeconds) / 60;
  for (const region of REGIONS) {
    if (region.builds && !region.builds.includes(build)) continue;
    const distance = Math.hypot(x - region.x, y - region.y);
    if (distance >= region.radius) continue;
    // Strongest at the centre, fading to nothing at the edge: smooth hot spots on a heatmap.
    const weight = 1 - distance / region.radius;
    fpsFactor *= 1 - (1 - region.fpsFactor) * weight;
    gpuExtra += region.gpuExtraMs * weight;
    gameExtra += region.gameThreadExtraMs * weight;
    memoryMb += region.memoryExtraMb * weight;
  }
  const fps = Math.max(5, profile.baseFps * fpsFactor * (1 + 0.06 * rng.gaussian()));
  const frameTimeMs = 1000 / fps;
  return {
    fps: round(fps, 1),
    frameTimeMs: round(frameTimeMs, 2),
    gpuTimeMs: round(Math.min(frameTimeMs, frameTimeMs * 0.62 + gpuExtra * 0.3), 2),
    gameThreadMs: round(Math.min(frameTimeMs, frameTimeMs * 0.45 + gameExtra * 0.4), 2),
    renderThreadMs: round(frameTimeMs * 0.5, 2),
    memoryUsedBytes: Math.round((memoryMb + 120 * rng.gaussian()) * 1024 * 1024),
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
