import type { HeatmapCell } from '../api/heatmap.api';
import { badness, rampColor, type MetricInfo, type ScaleDomain } from './heatmap-metrics';
import { BAND_COLOURS, bandOf, type Band, type BandLimits } from './threshold-bands';

/**
 * How a heatmap's cells are coloured. Performance: the threshold profile's bands (absolute, the
 * same in every view). Events: a count ramp over the counts on screen (a count has no good or
 * bad value, only "more happened here").
 */
export type HeatmapScale =
  | { kind: 'bands'; metric: MetricInfo; limits: BandLimits; minSamples: number }
  | { kind: 'count'; metric: MetricInfo; domain: ScaleDomain };

export type CellPaint = { rgb: [number, number, number]; alpha: number; band?: Band; faded: boolean };

// Opaque enough to read the band over a dark map, thin enough to still see the map below.
const FILL_ALPHA = 0.62;
// A cell with too few samples to trust: still there (someone was there), but visibly uncertain.
const FADED_ALPHA = 0.2;

/** A Performance cell has too few frame samples to be judged (its event count is its sample count). */
export function isLowSample(cell: HeatmapCell, minSamples: number): boolean {
  return cell.event_count < minSamples;
}

/** The cell's colour under the scale; undefined when the cell has no value for the metric (left undrawn). */
export function paintCell(cell: HeatmapCell, scale: HeatmapScale): CellPaint | undefined {
  const value = scale.metric.value(cell);
  if (value === null || !Number.isFinite(value)) return undefined;
  if (scale.kind === 'count') {
    return { rgb: rampColor(badness(value, scale.domain, false)), alpha: FILL_ALPHA, faded: false };
  }
  const band = bandOf(value, scale.limits);
  const faded = isLowSample(cell, scale.minSamples);
  return { rgb: BAND_COLOURS[band], alpha: faded ? FADED_ALPHA : FILL_ALPHA, band, faded };
}
