import { telemetry, type TelemetryEvent } from '@framedeck/proto';
import { describe, expect, it } from 'vitest';
import { EVENT_LIMITS, validateEvent } from './event.validator.js';

const receivedAtUs = 1_767_225_600_000_000;
const HOUR_US = 3_600_000_000;
const event = (fields: Partial<TelemetryEvent> = {}): TelemetryEvent =>
  Object.assign(
    new telemetry.v1.GameTelemetryEvent({ eventName: 'match_start', sessionId: 's', timestampUs: receivedAtUs }),
    fields,
  );
const reasonOf = (fields: Partial<TelemetryEvent>) => {
  const outcome = validateEvent(event(fields), receivedAtUs);
  return outcome.kind === 'ok' ? 'ok' : outcome.reason;
};

describe('event validation', () => {
  it('accepts a minimal event and the edges of the time window', () => {
    expect(reasonOf({})).toBe('ok');
    expect(reasonOf({ timestampUs: receivedAtUs - EVENT_LIMITS.maxAgeUs })).toBe('ok');
    expect(reasonOf({ timestampUs: receivedAtUs + 48 * HOUR_US })).toBe('ok');
    expect(reasonOf({ cameraYaw: 0, cameraPitch: -90, position: { x: 0, y: 0, z: 0 } })).toBe('ok');
  });

  it.each([
    ['missing_event_name', { eventName: '' }],
    ['missing_session_id', { sessionId: '' }],
    ['timestamp_too_old', { timestampUs: receivedAtUs - 30 * 24 * HOUR_US - 1 }],
    ['timestamp_too_old', { timestampUs: 0 }],
    ['timestamp_in_future', { timestampUs: receivedAtUs + 48 * HOUR_US + 1 }],
    ['event_name_too_long', { eventName: 'e'.repeat(129) }],
    ['map_id_too_long', { mapId: 'm'.repeat(256) }],
    ['platform_too_long', { platform: 'p'.repeat(65) }],
    ['non_finite_number', { fps: Number.NaN }],
    ['non_finite_number', { frameTimeMs: Number.POSITIVE_INFINITY }],
    ['non_finite_number', { position: { x: 1, y: Number.NaN, z: 0 } }],
    ['non_finite_number', { cameraYaw: Number.NEGATIVE_INFINITY }],
    ['non_finite_metric', { metrics: { damage: Number.NaN } }],
    ['metric_key_too_long', { metrics: { ['k'.repeat(129)]: 1 } }],
    ['too_many_metrics', { metrics: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`m${i}`, i])) }],
    ['attribute_too_long', { attributes: { weapon: 'x'.repeat(1025) } }],
    ['too_many_attributes', { attributes: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`a${i}`, 'v'])) }],
  ])('drops %s', (reason, fields) => {
    expect(reasonOf(fields as Partial<TelemetryEvent>)).toBe(reason);
  });
});
