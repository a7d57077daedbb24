import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { compareBuildCells, type BuildCellsQuery, type MapBounds } from '@framedeck/analytics';
import { startApi, type TestApi } from '../api/support/api-harness.js';
import { uploadMap } from './api-helpers.js';
import { insertEvents, type FixtureEvent } from './event-fixtures.js';

// The spatial build comparison (issue #18): where on a map a build got worse. Deterministic
// pseudo-random frame times (seeded), so every figure here is reproducible. Events of the last
// hours (the API reads the wall clock).
const NOW = new Date();
let api: TestApi;
let t: BootstrapResult;
const bounds: MapBounds = {
  worldMinX: 0,
  worldMinY: 0,
  worldMaxX: 200,
  worldMaxY: 200,
  worldMinZ: null,
  worldMaxZ: null,
};
const PLATFORM_MS = { pc: 12, switch: 30 } as const;

let seed = 3;
const uniform = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
/** Roughly normal noise (sum of uniforms), sd ≈ `sd`. */
const noise = (sd: number) => (uniform() + uniform() + uniform() + uniform() - 2) * sd * 1.73;

/** `count` frame samples of a build: platform mix, and an optional slow region (x 100–150, y 50–100). */
function build(
  buildId: string,
  count: number,
  options: { pcShare: number; slowRegion?: number; mapId: string },
): FixtureEvent[] {
  return Array.from({ length: count }, (_, i) => {
    const platform = uniform() < options.pcShare ? 'pc' : 'switch';
    const x = uniform() * 200;
    const y = uniform() * 200;
    const slow = options.slowRegion !== undefined && x >= 100 && x < 150 && y >= 50 && y < 100;
    const frameTimeMs = (PLATFORM_MS[platform] + noise(2)) * (slow ? options.slowRegion! : 1);
    return {
      projectId: t.projectId,
      eventName: 'frame',
      at: new Date(NOW.getTime() - (1 + (i % 5)) * 3_600_000),
      playerId: `p${i % 97}`,
      mapId: options.mapId,
      position: [x, y],
      fps: 1000 / frameTimeMs,
      frameTimeMs,
      platform,
      buildId,
    };
  });
}

/**
 * `sessions` sessions of a PC build, each leaving 20 samples in one cell with a slowdown of its
 * own (σ ≈ 15 %): samples of a session are correlated, as a player's settings and the scene make
 * them in real play.
 */
function sessionBuild(buildId: string, sessions: number, mapId: string): FixtureEvent[] {
  return Array.from({ length: sessions }, (_, s) => {
    const [cx, cy] = [Math.floor(uniform() * 8), Math.floor(uniform() * 8)];
    const factor = 1 + noise(0.15);
    return Array.from({ length: 20 }, (_, i): FixtureEvent => {
      const frameTimeMs = (PLATFORM_MS.pc + noise(2)) * factor;
      return {
        projectId: t.projectId,
        eventName: 'frame',
        at: new Date(NOW.getTime() - (1 + (s % 5)) * 3_600_000 + i * 1000),
        playerId: `${buildId}-p${s}`,
        sessionId: `${buildId}-s${s}`,
        mapId,
        position: [cx * 25 + 1 + uniform() * 23, cy * 25 + 1 + uniform() * 23],
        fps: 1000 / frameTimeMs,
        frameTimeMs,
        platform: 'pc',
        buildId,
      };
    });
  }).flat();
}

const rule = { confidence: 0.95, thresholdPercent: 5, minSamples: 30 };
const query = (mapId: string, base: string, target: string, extra: Partial<BuildCellsQuery> = {}): BuildCellsQuery => ({
  projectId: t.projectId,
  mapId,
  bounds,
  cellSize: 25,
  days: 7,
  now: NOW,
  base,
  target,
  ...rule,
  ...extra,
});

beforeAll(async () => {
  api = await startApi();
  t = await bootstrapTenant(api.pool, { plan: 'pro' });
  await insertEvents(api.clickhouse, [
    // 64 cells × ~300 samples a build: the target 30 % slower in one region only.
    ...build('1.4.0', 20_000, { pcShare: 0.7, mapId: 'bridge' }),
    ...build('1.5.0', 20_000, { pcShare: 0.7, mapId: 'bridge', slowRegion: 1.3 }),
    // Identical per-platform frame times, a different platform mix (70 % PC vs 20 % PC).
    ...build('mix-a', 20_000, { pcShare: 0.7, mapId: 'docks' }),
    ...build('mix-b', 20_000, { pcShare: 0.2, mapId: 'docks' }),
    // Identical builds, for the false-positive rate.
    ...build('same-a', 20_000, { pcShare: 0.5, mapId: 'yard' }),
    ...build('same-b', 20_000, { pcShare: 0.5, mapId: 'yard' }),
    // Identical builds whose samples come in correlated sessions.
    ...sessionBuild('sess-a', 1_000, 'plaza'),
    ...sessionBuild('sess-b', 1_000, 'plaza'),
  ]);
  for (const mapId of ['bridge', 'docks', 'yard', 'plaza']) {
    const upload = await uploadMap(api, {
      key: t.keys.readWrite!,
      projectId: t.projectId,
      fields: { name: mapId, mapId, worldMinX: 0, worldMinY: 0, worldMaxX: 200, worldMaxY: 200 },
    });
    expect(upload.status).toBeLessThan(300);
  }
});
afterAll(() => api?.close());

describe('spatial build comparison', () => {
  it('a region 30 % slower: exactly its cells are worse, ranked, and the overall verdict is worse', async () => {
    const res = await api.request(
      `/v1/projects/${t.projectId}/builds/compare?base=1.4.0&target=1.5.0&mapId=bridge&cellSize=25&days=7`,
      { key: t.keys.read! },
    );
    expect(res.status).toBe(200);
    const data = res.body.data;
    const worse = data.cells.filter((c: { verdict: string }) => c.verdict === 'worse');
    // The region x 100–150, y 50–100 is the 2 × 2 cells with centres x 112.5/137.5, y 62.5/87.5.
    expect(worse.map((c: { x: number; y: number }) => [c.x, c.y]).sort()).toEqual([
      [112.5, 62.5],
      [112.5, 87.5],
      [137.5, 62.5],
      [137.5, 87.5],
    ]);
    expect(data.cells.filter((c: { verdict: string }) => c.verdict === 'better')).toEqual([]);
    expect(data.regressions).toHaveLength(4);
    expect(data.regressions[0].impact).toBeGreaterThanOrEqual(data.regressions[3].impact);
    expect(data.regressions[0].deltaPercent).toBeGreaterThan(20);
    // The map-wide mean moved by ~2 % (4 of 64 cells): below the threshold, yet not "unchanged".
    expect(data.overall.metrics.frame_time.verdict).toBe('unchanged');
    expect(data.verdict).toBe('worse');
    expect(worse[0].target.p95FrameTime).toBeGreaterThan(worse[0].base.p95FrameTime);
  });

  it('a different platform mix with identical per-platform frame times: nothing worse', async () => {
    const result = await compareBuildCells(api.clickhouse, query('docks', 'mix-a', 'mix-b'));
    expect(result.testedCells).toBeGreaterThan(50);
    expect(result.cells.filter((c) => c.verdict !== 'unchanged' && c.verdict !== 'insufficient')).toEqual([]);
    // Pooled over platforms, the target would look ~60 % slower in every cell.
    const pooled = result.cells.find((c) => c.verdict === 'unchanged')!;
    expect(pooled.target.avgFrameTime! / pooled.base.avgFrameTime!).toBeGreaterThan(1.4);
  });

  it('identical builds: no cell flagged (the false-positive rate measured here is 0 of 64)', async () => {
    const result = await compareBuildCells(api.clickhouse, query('yard', 'same-a', 'same-b'));
    expect(result.testedCells).toBe(64);
    expect(result.cells.filter((c) => c.verdict === 'worse' || c.verdict === 'better')).toEqual([]);
  });

  it('identical builds in correlated sessions: nothing flagged, where samples taken as independent would be', async () => {
    const result = await compareBuildCells(api.clickhouse, query('plaza', 'sess-a', 'sess-b'));
    expect(result.testedCells).toBeGreaterThan(50);
    expect(result.cells.filter((c) => c.verdict === 'worse' || c.verdict === 'better')).toEqual([]);
    // One platform, so without the design effect z would be √deff times larger.
    const effect = result.designEffects.pc!;
    expect(effect).toBeGreaterThan(3);
    const naive = result.cells.filter(
      (c) => c.z !== null && Math.abs(c.z * Math.sqrt(effect)) > result.criticalZ && Math.abs(c.deltaPercent!) > 5,
    );
    expect(naive.length).toBeGreaterThan(0);
  });

  it('the rollups give the cells the plain query over events gives', async () => {
    const fromRollup = await compareBuildCells(api.clickhouse, query('bridge', '1.4.0', '1.5.0'), 'rollups');
    const fromEvents = await compareBuildCells(api.clickhouse, query('bridge', '1.4.0', '1.5.0'), 'events');
    expect(fromRollup.source).toBe('rollups');
    expect(fromEvents.source).toBe('events');
    expect(fromRollup.cells.map((c) => [c.x, c.y, c.verdict, c.base, c.target, c.platforms])).toEqual(
      fromEvents.cells.map((c) => [c.x, c.y, c.verdict, c.base, c.target, c.platforms]),
    );
    fromRollup.cells.forEach((c, i) => expect(c.deltaMs ?? 0).toBeCloseTo(fromEvents.cells[i]!.deltaMs ?? 0, 6));
  });

  it('perf-diff form: baseline/candidate aliases, diffs for the CLI, a platform filter', async () => {
    const res = await api.request(
      `/v1/projects/${t.projectId}/builds/compare?baseline=1.4.0&candidate=1.5.0&mapId=bridge&platform=pc&fresh=1`,
      { key: t.keys.read! },
    );
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.baseline).toEqual({ build_id: '1.4.0' });
    expect(data.candidate).toEqual({ build_id: '1.5.0' });
    const frame = data.diffs.find((d: { metric: string }) => d.metric === 'frame_time');
    expect(frame.baselineP50).toBeGreaterThan(10);
    expect(frame.baselineP50).toBeLessThan(14); // PC only
    expect(typeof frame.diffPct).toBe('number');
    expect(data.cells.every((c: { platforms: string[] }) => c.platforms.every((p) => p === 'pc'))).toBe(true);
  });
});
