import { describe, expect, it } from 'vitest';
import {
  BatchDecodeError,
  decodeTelemetryBatch,
  encodedEventSize,
  encodeTelemetryBatch,
  TelemetrySource,
} from './index.js';

describe('TelemetryBatch codec', () => {
  it('round-trips every field, int64 as exact numbers', () => {
    const event = {
      eventName: 'match_start',
      timestampUs: 1_767_225_600_123_456,
      sessionId: 's-1',
      playerId: 'p-1',
      position: { x: 1.5, y: -2, z: 3 },
      mapId: 'dust',
      fps: 59.5,
      frameTimeMs: 16.5,
      memoryUsedBytes: 6 * 2 ** 30,
      gpuTimeMs: 9.25,
      attributes: { weapon: 'bow' },
      metrics: { damage: 12.5 },
      source: TelemetrySource.TELEMETRY_SOURCE_AUTOMATED,
      buildId: '1.2.3',
      platform: 'pc',
      engineVersion: 'ue5.4',
      cameraYaw: 90,
      cameraPitch: -45,
      gameThreadMs: 4.5,
      renderThreadMs: 5.5,
    };
    const [decoded] = decodeTelemetryBatch(encodeTelemetryBatch([event]));
    expect({ ...decoded, position: { ...decoded!.position } }).toEqual(event);
    expect(typeof decoded!.timestampUs).toBe('number');
  });

  it('keeps camera presence: absent is null, 0 is 0', () => {
    const [absent, zero] = decodeTelemetryBatch(
      encodeTelemetryBatch([{ eventName: 'a' }, { eventName: 'b', cameraYaw: 0, cameraPitch: 0 }]),
    );
    expect(absent!.cameraYaw).toBeNull();
    expect(absent!.cameraPitch).toBeNull();
    expect(zero!.cameraYaw).toBe(0);
    expect(zero!.cameraPitch).toBe(0);
    expect(absent!.timestampUs).toBe(0);
    expect(absent!.memoryUsedBytes).toBe(0);
  });

  it('decodes an empty body as an empty batch', () => {
    expect(decodeTelemetryBatch(new Uint8Array(0))).toEqual([]);
  });

  it.each([
    ['garbage', Buffer.from('{"events":[]}')],
    ['a truncated message', encodeTelemetryBatch([{ eventName: 'x', sessionId: 'y' }]).subarray(0, 5)],
    ['invalid UTF-8 in a string', Buffer.from([0x0a, 0x03, 0x0a, 0x01, 0xff])],
  ])('rejects %s with BatchDecodeError', (_, bytes) => {
    expect(() => decodeTelemetryBatch(bytes)).toThrow(BatchDecodeError);
  });

  it('sizes an event exactly as it is framed inside a batch', () => {
    const events = [{ eventName: 'a'.repeat(200), attributes: { k: 'v' } }, { eventName: 'b' }];
    expect(events.map(encodedEventSize).reduce((a, b) => a + b)).toBe(encodeTelemetryBatch(events).length);
  });
});
