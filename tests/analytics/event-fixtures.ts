import { randomUUID } from 'node:crypto';
import type { ClickHouseWriter } from '@framedeck/clickhouse';

/** The fields a fixture usually sets; everything else gets a neutral default. */
export type FixtureEvent = {
  projectId: string;
  eventName?: string;
  at: Date;
  playerId?: string;
  sessionId?: string;
  mapId?: string;
  position?: [number, number, number?];
  fps?: number;
  frameTimeMs?: number;
  memoryBytes?: number;
  gpuTimeMs?: number;
  gameThreadMs?: number;
  renderThreadMs?: number;
  buildId?: string;
  platform?: string;
  /** Stored source; player when absent. */
  source?: 'unspecified' | 'player' | 'automated';
  eventId?: string;
};

const clickHouseDateTime = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

export function toRow(e: FixtureEvent): Record<string, unknown> {
  return {
    project_id: e.projectId,
    event_id: e.eventId ?? randomUUID(),
    event_name: e.eventName ?? 'frame',
    timestamp_us: e.at.getTime() * 1000,
    timestamp: clickHouseDateTime(e.at),
    session_id: e.sessionId ?? `session-${e.playerId ?? 'anon'}`,
    player_id: e.playerId ?? '',
    has_position: e.position ? 1 : 0,
    position_x: e.position?.[0] ?? 0,
    position_y: e.position?.[1] ?? 0,
    position_z: e.position?.[2] ?? 0,
    map_id: e.mapId ?? '',
    fps: e.fps ?? 0,
    frame_time_ms: e.frameTimeMs ?? 0,
    memory_used_bytes: e.memoryBytes ?? 0,
    gpu_time_ms: e.gpuTimeMs ?? 0,
    'attributes.key': [],
    'attributes.value': [],
    'metrics.key': [],
    'metrics.value': [],
    source: e.source ?? 'player',
    build_id: e.buildId ?? '',
    platform: e.platform ?? '',
    engine_version: '',
    camera_yaw: null,
    camera_pitch: null,
    game_thread_ms: e.gameThreadMs ?? 0,
    render_thread_ms: e.renderThreadMs ?? 0,
    sdk_version: 'fixture/1',
    received_at: clickHouseDateTime(e.at),
  };
}

/**
 * Inserts fixture events as the consumer stores a batch seen for the first time (the ingest
 * path is tested elsewhere): into the events table and, once, into rollup_input, which feeds
 * the rollups (clickhouse/007).
 */
export async function insertEvents(clickhouse: ClickHouseWriter, events: readonly FixtureEvent[]): Promise<void> {
  const rows = events.map(toRow);
  await clickhouse.insertJsonRows('events', rows);
  await clickhouse.insertJsonRows('rollup_input', rows);
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** A fixed "now" for fixtures: a Wednesday noon, UTC. Queries take `now`, so nothing depends on the clock. */
export const NOW = new Date('2026-03-18T12:00:00Z');
export const daysBefore = (days: number, hours = 0) => new Date(NOW.getTime() - days * DAY + hours * HOUR);

/**
 * `count` events of random telemetry over the 40 days before NOW, the same every run (a seeded
 * generator): positions anywhere around the arena (ARENA_BOUNDS), often exactly on a 5-unit grid
 * line or an edge (the rollups' hard cases), events with and without frame samples, several
 * names, builds, platforms, sources and maps, some without a player or a position.
 */
export function randomTelemetry(projectId: string, count: number): FixtureEvent[] {
  let seed = 11;
  const next = (n: number) => Math.floor(((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * n);
  const pick = <T>(xs: readonly T[]): T => xs[next(xs.length)]!;
  const coordinate = (min: number, max: number) =>
    pick([min, max, min + 5 * next((max - min) / 5 + 1), min - 3 + next((max - min + 6) * 100) / 100]);
  return Array.from({ length: count }, () => {
    const sample = next(5) !== 0;
    return {
      projectId,
      eventName: pick(['frame', 'kill', 'death', 'loot']),
      at: new Date(NOW.getTime() - next(40 * 86_400) * 1000 + 36 * HOUR * (next(20) === 0 ? 1 : 0)),
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
