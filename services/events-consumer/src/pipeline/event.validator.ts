import type { TelemetryEvent } from '@framedeck/proto';
import { drop, ok, type EventOutcome } from './outcome.js';

/**
 * The spec's per-event ingest rules. An event that breaks one is dropped and counted under the
 * returned reason; the rest of its batch is stored.
 *
 * Bounds (ours; the spec leaves the numbers open), in characters (UTF-16 code units):
 *   event_name 128, session_id 128, player_id 128, map_id 255 (the heatmap's mapId limit),
 *   build_id 128, platform 64, engine_version 64; attributes at most 64 entries, keys 128,
 *   values 1024; metrics at most 64 entries, keys 128. Every float and metric must be finite.
 */
export const EVENT_LIMITS = {
  maxAgeUs: 30 * 86_400 * 1_000_000,
  maxAheadUs: 48 * 3_600 * 1_000_000,
  strings: {
    eventName: 128,
    sessionId: 128,
    playerId: 128,
    mapId: 255,
    buildId: 128,
    platform: 64,
    engineVersion: 64,
  },
  mapEntries: 64,
  mapKey: 128,
  attributeValue: 1024,
} as const;

/** snake_case names for reasons, as the fields are named in the spec and in SQL. */
const STRING_REASONS = {
  eventName: 'event_name_too_long',
  sessionId: 'session_id_too_long',
  playerId: 'player_id_too_long',
  mapId: 'map_id_too_long',
  buildId: 'build_id_too_long',
  platform: 'platform_too_long',
  engineVersion: 'engine_version_too_long',
} as const;
const STRING_FIELDS = Object.keys(EVENT_LIMITS.strings) as (keyof typeof EVENT_LIMITS.strings)[];

/** ok, or drop with the first rule the event breaks. */
export function validateEvent(event: TelemetryEvent, receivedAtUs: number): EventOutcome<TelemetryEvent> {
  const reason = rejectionReason(event, receivedAtUs);
  return reason === undefined ? ok(event) : drop(reason);
}

function rejectionReason(event: TelemetryEvent, receivedAtUs: number): string | undefined {
  if (event.eventName.length === 0) return 'missing_event_name';
  if (event.sessionId.length === 0) return 'missing_session_id';
  if (event.timestampUs < receivedAtUs - EVENT_LIMITS.maxAgeUs) return 'timestamp_too_old';
  if (event.timestampUs > receivedAtUs + EVENT_LIMITS.maxAheadUs) return 'timestamp_in_future';
  for (const field of STRING_FIELDS) {
    if (event[field].length > EVENT_LIMITS.strings[field]) return STRING_REASONS[field];
  }
  if (!allFinite(event)) return 'non_finite_number';
  return attributesReason(event.attributes) ?? metricsReason(event.metrics);
}

function allFinite(event: TelemetryEvent): boolean {
  const p = event.position;
  return (
    Number.isFinite(event.fps) &&
    Number.isFinite(event.frameTimeMs) &&
    Number.isFinite(event.gpuTimeMs) &&
    Number.isFinite(event.gameThreadMs) &&
    Number.isFinite(event.renderThreadMs) &&
    (p == null || (Number.isFinite(p.x) && Number.isFinite(p.y) && Number.isFinite(p.z))) &&
    (event.cameraYaw == null || Number.isFinite(event.cameraYaw)) &&
    (event.cameraPitch == null || Number.isFinite(event.cameraPitch))
  );
}

function attributesReason(attributes: Record<string, string>): string | undefined {
  let entries = 0;
  for (const key in attributes) {
    if (++entries > EVENT_LIMITS.mapEntries) return 'too_many_attributes';
    if (key.length > EVENT_LIMITS.mapKey || attributes[key]!.length > EVENT_LIMITS.attributeValue) {
      return 'attribute_too_long';
    }
  }
  return undefined;
}

function metricsReason(metrics: Record<string, number>): string | undefined {
  let entries = 0;
  for (const key in metrics) {
    if (++entries > EVENT_LIMITS.mapEntries) return 'too_many_metrics';
    if (key.length > EVENT_LIMITS.mapKey) return 'metric_key_too_long';
    if (!Number.isFinite(metrics[key])) return 'non_finite_metric';
  }
  return undefined;
}
