import type { BuildCell } from '../api/analytics.api';
import { formatChange, formatNumber, formatPercent } from '../components/format';
import { VerdictBadge } from './verdict-badge';

type Side = BuildCell['base'];
const ROWS: { label: string; value: (side: Side) => string }[] = [
  { label: 'Samples', value: (s) => formatNumber(s.samples) },
  { label: 'p50 frame time', value: (s) => `${formatNumber(s.p50FrameTime, 1)} ms` },
  { label: 'p95 frame time', value: (s) => `${formatNumber(s.p95FrameTime, 1)} ms` },
  { label: 'p99 frame time', value: (s) => `${formatNumber(s.p99FrameTime, 1)} ms` },
  { label: 'Avg fps', value: (s) => formatNumber(s.avgFps, 1) },
  { label: 'Frames > 33.3 ms', value: (s) => formatPercent(s.hitchShare33) },
];

/** Both builds' numbers in the hovered cell of the diff heatmap (announced politely). */
export function DiffCellReadout({ cell }: { cell: BuildCell | undefined }) {
  return (
    <section className="panel cell-readout" aria-label="Hovered cell" aria-live="polite">
      <h2>Cell</h2>
      {!cell ? (
        <p className="muted small">Point at a cell to compare its numbers.</p>
      ) : (
        <dl>
          <dt>Centre (x, y)</dt>
          <dd>
            {formatNumber(cell.x, 1)}, {formatNumber(cell.y, 1)}
          </dd>
          <dt>Verdict</dt>
          <dd>
            <VerdictBadge verdict={cell.verdict} />
          </dd>
          <dt>Δ mean frame time</dt>
          <dd>
            {formatChange(cell.deltaMs, 2, ' ms')} ({formatChange(cell.deltaPercent, 1, '%')})
          </dd>
          {ROWS.map((row) => (
            <Pair key={row.label} label={row.label} base={row.value(cell.base)} target={row.value(cell.target)} />
          ))}
          <dt>Platforms tested</dt>
          <dd>{cell.platforms.join(', ') || '—'}</dd>
        </dl>
      )}
    </section>
  );
}

function Pair({ label, base, target }: { label: string; base: string; target: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        {base} → {target}
      </dd>
    </>
  );
}
