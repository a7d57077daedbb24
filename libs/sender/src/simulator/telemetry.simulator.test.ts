import { describe, expect, it } from 'vitest';
import { FUNNEL, simulateTelemetry } from './telemetry.simulator.js';
import { samplePerformance, WORLD } from './world.js';
import { Prng } from './prng.js';

const options = { seed: 11, players: 30, minutes: 12, startTimeMs: 1_700_000_000_000 };

// Generating the same play three times takes ~1 s alone and several under a loaded CI machine.
describe('simulateTelemetry', { timeout: 20_000 }, () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const a = [...simulateTelemetry(options)];
    expect([...simulateTelemetry(options)]).toEqual(a);
    expect([...simulateTelemetry({ ...options, seed: 12 })]).not.toEqual(a);
  });

  it('emits time-ordered events inside the map, with funnels that narrow step by step', () => {
    const events = [...simulateTelemetry(options)];
    const times = events.map((e) => e.timestampUs as number);
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]! - 1_000_000)).toBe(true);
    for (const e of events) {
      expect(e.position!.x).toBeGreaterThanOrEqual(WORLD.minX);
      expect(e.position!.y).toBeLessThanOrEqual(WORLD.maxY);
      expect(e.sessionId).not.toBe('');
    }
    const count = (name: string) => events.filter((e) => e.eventName === name).length;
    const steps = FUNNEL.map(count);
    expect(steps[0]).toBeGreaterThan(0);
    for (let i = 1; i < steps.length; i++) expect(steps[i]).toBeLessThan(steps[i - 1]!);
    expect(count('purchase')).toBeGreaterThan(0);
    expect(new Set(events.map((e) => e.buildId)).size).toBe(2);
    expect(new Set(events.map((e) => e.platform)).size).toBeGreaterThan(2);
    // Camera presence: samples carry a camera, named events do not.
    expect(events.find((e) => e.eventName === 'perf_sample')!.cameraYaw).toBeTypeOf('number');
    expect(events.find((e) => e.eventName === 'match_start')!.cameraYaw).toBeUndefined();
  });

  it('makes the bridge slower on build 1.5.0 only, and the forest slow on every build', () => {
    const avgFps = (x: number, y: number, build: string) => {
      const rng = new Prng(1);
      let sum = 0;
      for (let i = 0; i < 200; i++) sum += samplePerformance(x, y, build, 'pc', rng).fps;
      return sum / 200;
    };
    expect(avgFps(500, 520, '1.5.0')).toBeLessThan(avgFps(500, 520, '1.4.2') * 0.7);
    expect(avgFps(250, 700, '1.4.2')).toBeLessThan(avgFps(900, 900, '1.4.2') * 0.7);
    expect(avgFps(900, 900, '1.5.0')).toBeCloseTo(avgFps(900, 900, '1.4.2'), -1);
  });
});
