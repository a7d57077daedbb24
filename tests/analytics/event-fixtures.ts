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
