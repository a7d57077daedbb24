import type { HeatmapCell } from '../api/heatmap.api';
import { formatNumber, formatPercent } from '../components/format';
import { legendCaption, legendGradient, legendTicks, HEATMAP_METRICS, type MetricInfo } from './heatmap-metrics';
import { paintCell, type HeatmapScale } from './heatmap-scale';
import { BAND_COLOURS, BAND_LABELS, bandRanges } from './threshold-bands';

/**
 * The colour scale in the metric's real units: Performance mode's threshold bands with their
 * limits (and what a faded cell means), or Events mode's count ramp with whole-number ticks.
 */
export function HeatmapLegend({ scale, profileName }: { scale: HeatmapScale | undefined; profileName?: string }) {
  if (!scale) return <p className="muted small">Nothing to colour yet.</p>;
  const { metric } = scale;
  if (scale.kind === 'count') {
    const { domain } = scale;
    return (
      <figure className="legend" aria-label={`Colour scale: ${metric.label} in ${metric.unit}`}>
        <figcaption className="legend-caption">{legendCaption(metric)}</figcaption>
        <div className="legend-bar" style={{ backgroundImage: legendGradient(metric.higherIsBetter) }} />
        <div className="legend-ticks">
          {legendTicks(domain, 5, metric.digits === 0).map((v, i) => (
            <span key={i}>{formatNumber(v, domain.max - domain.min < 10 ? metric.digits : 0)}</span>
          ))}
        </div>
      </figure>
    );
  }
  const ranges = bandRanges(scale.limits, (n) => formatNumber(n, n % 1 === 0 ? 0 : 1));
  return (
    <figure className="legend" aria-label={`Colour scale: ${metric.label} in ${metric.unit}`}>
      <figcaption className="legend-caption">
        {legendCaption(metric)} · threshold profile “{profileName}”
      </figcaption>
      <ul className="band-keys">
        {(['good', 'warn', 'bad'] as const).map((band) => (
          <li key={band} data-band={band}>
            <span className="band-swatch" style={{ background: `rgb(${BAND_COLOURS[band].join(' ')})` }} />
            <span>{BAND_LABELS[band]}</span>
            <span className="band-range">
              {ranges[band]} {metric.unit}
            </span>
          </li>
        ))}
        <li data-band="faded">
          <span className="band-swatch band-swatch-faded" />
          <span>Faded</span>
          <span className="band-range">under {formatNumber(scale.minSamples)} samples, not ranked</span>
        </li>
      </ul>
    </figure>
  );
}

/** The numbers of the hovered cell (announced politely as it changes). */
export function CellReadout({
  cell,
  cellSize,
  scale,
}: {
  cell: HeatmapCell | undefined;
  cellSize: number;
  scale: HeatmapScale | undefined;
}) {
  const paint = cell && scale?.kind === 'bands' ? paintCell(cell, scale) : undefined;
  return (
    <section className="panel cell-readout" aria-label="Hovered cell" aria-live="polite">
      <h2>Cell</h2>
      {!cell ? (
        <p className="muted small">Point at a cell (or focus the map and use the arrow keys) to read its numbers.</p>
      ) : (
        <dl>
          <dt>Centre (x, y)</dt>
          <dd>
            {formatNumber(cell.x, 1)}, {formatNumber(cell.y, 1)}
          </dd>
          <dt>Size</dt>
          <dd>
            {cellSize} × {cellSize}
          </dd>
          <dt>Events</dt>
          <dd>{formatNumber(cell.event_count)}</dd>
          {paint?.band && (
            <>
              <dt>Band</dt>
              <dd>
                {BAND_LABELS[paint.band]}
                {paint.faded && ' (too few samples)'}
              </dd>
            </>
          )}
          {(['fps', 'frame_time', 'memory', 'gpu_time'] as const).map((m) => {
            const info = HEATMAP_METRICS[m];
            const value = info.value(cell);
            return <Row key={m} label={`Avg ${info.label.toLowerCase()}`} value={value} info={info} />;
          })}
          {cell.p95_frame_time != null && (
            <>
              <dt>P95 / p99 frame time</dt>
              <dd>
                {formatNumber(cell.p95_frame_time, 2)} / {formatNumber(cell.p99_frame_time, 2)} ms
              </dd>
            </>
          )}
          {cell.hitch_share_33ms != null && (
            <>
              <dt>Hitches (&gt; 33.3 ms)</dt>
              <dd>{formatPercent(cell.hitch_share_33ms)}</dd>
            </>
          )}
        </dl>
      )}
    </section>
  );
}

function Row({ label, value, info }: { label: string; value: number | null; info: MetricInfo }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value === null ? '—' : `${formatNumber(value, info.digits)} ${info.unit}`}</dd>
    </>
  );
}
