import type { HeatmapCell } from '../api/heatmap.api';
import { formatNumber } from '../components/format';
import {
  legendCaption,
  legendGradient,
  legendTicks,
  HEATMAP_METRICS,
  type MetricInfo,
  type ScaleDomain,
} from './heatmap-metrics';

/** The colour scale in the metric's real units (ms, fps, MB, events). */
export function HeatmapLegend({ metric, domain }: { metric: MetricInfo; domain: ScaleDomain | undefined }) {
  if (!domain) return <p className="muted small">No cell has {metric.label.toLowerCase()} data.</p>;
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

/** The numbers of the hovered cell (announced politely as it changes). */
export function CellReadout({ cell, cellSize }: { cell: HeatmapCell | undefined; cellSize: number }) {
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
          {(['fps', 'frame_time', 'memory', 'gpu_time'] as const).map((m) => {
            const info = HEATMAP_METRICS[m];
            const value = info.value(cell);
            return <Row key={m} label={`Avg ${info.label.toLowerCase()}`} value={value} info={info} />;
          })}
          {cell.p95_frame_time != null && (
            <>
              <dt>P95 frame time</dt>
              <dd>{formatNumber(cell.p95_frame_time, 2)} ms</dd>
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
