import { gunzipSync } from 'node:zlib';
import { decodeTelemetryBatch } from '@framedeck/proto';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, splitIntoBodies } from './batch.splitter.js';
import { Prng } from './simulator/prng.js';
import { simulateTelemetry } from './simulator/telemetry.simulator.js';

describe('splitIntoBodies', () => {
  const events = [...simulateTelemetry({ seed: 3, players: 40, minutes: 8, startTimeMs: 1_700_000_000_000 })];

  it('keeps every body under 126,000 bytes as sent, and every event in order', () => {
    const bodies = splitIntoBodies(events);
    expect(bodies.length).toBeGreaterThan(2);
    for (const body of bodies) expect(body.body.length).toBeLessThanOrEqual(MAX_BODY_BYTES);
    const decoded = bodies.flatMap((b) => decodeTelemetryBatch(gunzipSync(b.body)));
    expect(decoded.map((e) => e.timestampUs)).toEqual(events.map((e) => e.timestampUs));
  });

  it('splits incompressible events that overshoot the estimate', () => {
    const rng = new Prng(5);
    const noisy = Array.from({ length: 600 }, (_, i) => ({
      eventName: 'blob',
      sessionId: `s${i}`,
      attributes: {
        data: Buffer.from(Array.from({ length: 700 }, () => Math.floor(rng.next() * 256))).toString('base64'),
      },
    }));
    const bodies = splitIntoBodies(noisy, { maxBodyBytes: 50_000 });
    expect(bodies.length).toBeGreaterThan(5);
    for (const body of bodies) expect(body.body.length).toBeLessThanOrEqual(50_000);
    expect(bodies.reduce((n, b) => n + b.events.length, 0)).toBe(600);
  });

  it('refuses a single event that can never fit', () => {
    const huge = { eventName: 'x', attributes: { a: 'x'.repeat(10) } };
    expect(() => splitIntoBodies([huge], { maxBodyBytes: 10 })).toThrow(RangeError);
  });
});
