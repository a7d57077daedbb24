import { describe, expect, it } from 'vitest';
import type { HeatmapCell } from '../api/heatmap.api';
import { badness, domainOf, HEATMAP_METRICS, legendCaption, legendTicks, rampColor } from './heatmap-metrics';
import { paintCell, type HeatmapScale } from './heatmap-scale';
import { BAND_COLOURS } from './threshold-bands';

const cell = (over: Partial<HeatmapCell>): HeatmapCell => ({
  x: 0,
  y: 0,
  weight: 0,
  event_count: 1,
  avg_fps: 0,
  avg_frame_time: 0,
  avg_memory: 0,
  avg_gpu_time: null,
  p95_frame_time: null,
  p99_frame_time: null,
  hitch_share_33ms: null,
  hitch_share_50ms: null,
  ...over,
});

describe('heatmap metrics', () => {
  it('treats 0 and null as "not collected", not as a perfect value', () => {
    const cells = [cell({ avg_fps: 30 }), cell({ avg_fps: 0 }), cell({ avg_fps: 90 })];
    expect(domainOf(cells, HEATMAP_METRICS.fps)).toEqual({ min: 30, max: 90 });
    expect(HEATMAP_METRICS.gpu_time.value(cell({ avg_gpu_time: null }))).toBeNull();
    expect(domainOf([cell({})], HEATMAP_METRICS.frame_time)).toBeUndefined();
  });

  it('colours low FPS and high frame times as bad', () => {
    const domain = { min: 30, max: 90 };
    expect(badness(30, domain, true)).toBe(1);
    expect(badness(90, domain, true)).toBe(0);
    expect(badness(90, domain, false)).toBe(1);
    expect(badness(200, domain, false)).toBe(1); // clamped
    expect(badness(45, { min: 45, max: 45 }, false)).toBe(0.5);
  });

  it('runs the ramp from blue (good) to red (bad)', () => {
    expect(rampColor(0)).toEqual([49, 130, 206]);
    expect(rampColor(1)).toEqual([239, 68, 68]);
    const [r, , b] = rampColor(0.9);
    expect(r).toBeGreaterThan(b);
  });

  it('labels the legend from min to max', () => {
    expect(legendTicks({ min: 10, max: 50 })).toEqual([10, 20, 30, 40, 50]);
    expect(legendTicks({ min: 7, max: 7 })).toEqual([7]);
  });

  it('gives counts whole, distinct ticks', () => {
    expect(legendTicks({ min: 1, max: 3 }, 5, true)).toEqual([1, 2, 3]);
    expect(legendTicks({ min: 0, max: 400 }, 5, true)).toEqual([0, 100, 200, 300, 400]);
  });

  it('captions event counts as a density, measurements with their good end', () => {
    expect(legendCaption(HEATMAP_METRICS.events)).toBe('Events per cell · more is hotter');
    expect(legendCaption(HEATMAP_METRICS.fps)).toBe('FPS (fps) · higher is better');
    expect(legendCaption(HEATMAP_METRICS.frame_time)).toBe('Frame time (ms) · lower is better');
  });

  it('paints Performance cells by band, the same colour whatever the other cells hold, faded under the minimum', () => {
    const fps: HeatmapScale = {
      kind: 'bands',
      metric: HEATMAP_METRICS.fps,
      limits: { good: 60, warn: 30, higherIsBetter: true },
      minSamples: 30,
    };
    const at59 = cell({ avg_fps: 59, event_count: 40 });
    expect(paintCell(at59, fps)).toEqual({ rgb: BAND_COLOURS.warn, alpha: 0.62, band: 'warn', faded: false });
    const few = paintCell(cell({ avg_fps: 20, event_count: 29 }), fps)!;
    expect(few).toMatchObject({ band: 'bad', faded: true });
    expect(few.alpha).toBeLessThan(0.62);
    // No value, no paint: the cell is left undrawn rather than shown as good.
    expect(paintCell(cell({ avg_fps: 0, event_count: 40 }), fps)).toBeUndefined();
  });

  it('paints Events cells on the count ramp of the counts on screen, never faded', () => {
    const events: HeatmapScale = { kind: 'count', metric: HEATMAP_METRICS.events, domain: { min: 1, max: 9 } };
    expect(paintCell(cell({ event_count: 9 }), events)).toEqual({ rgb: rampColor(1), alpha: 0.62, faded: false });
  });

  it('reads hitch shares in percent, a share of 0 being a value (no hitches), not "not collected"', () => {
    const hitches = HEATMAP_METRICS.hitch_share_33ms;
    expect(hitches.value(cell({ hitch_share_33ms: 0 }))).toBe(0);
    expect(hitches.value(cell({ hitch_share_33ms: 0.25 }))).toBe(25);
    expect(hitches.value(cell({ hitch_share_33ms: null }))).toBeNull();
    expect(HEATMAP_METRICS.p99_frame_time.value(cell({ p99_frame_time: 41.5 }))).toBe(41.5);
  });
});
