import { formatCompact, formatNumber } from '../components/format';
import { linear, niceTicks } from './chart-scale';

export type Series = { name: string; className: string; values: readonly number[] };

const WIDTH = 760;
const HEIGHT = 260;
const PAD = { left: 48, right: 12, top: 12, bottom: 34 };

/** Vertical columns over ordered periods (days, weeks, months), one or two series side by side. */
export function ColumnChart({
  labels,
  series,
  title,
}: {
  labels: readonly string[];
  series: readonly Series[];
  title: string;
}) {
  const max = Math.max(0, ...series.flatMap((s) => s.values));
  const ticks = niceTicks(max);
  const y = linear(ticks[ticks.length - 1]!, HEIGHT - PAD.bottom, PAD.top);
  const band = (WIDTH - PAD.left - PAD.right) / Math.max(1, labels.length);
  const barWidth = Math.max(2, Math.min(28, (band * 0.7) / series.length));
  const labelEvery = Math.ceil(labels.length / 12);
  return (
    <svg className="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={title}>
      {ticks.map((t) => (
        <g key={t}>
          <line className="grid-line" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(t)} y2={y(t)} />
          <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end">
            {formatCompact(t)}
          </text>
        </g>
      ))}
      {labels.map((label, i) => {
        const centre = PAD.left + band * (i + 0.5);
        return (
          <g key={label}>
            {series.map((s, k) => {
              const v = s.values[i] ?? 0;
              const left = centre - (barWidth * series.length) / 2 + k * barWidth;
              return (
                <rect
                  key={s.name}
                  className={s.className}
                  x={left}
                  y={y(v)}
                  width={barWidth - 1}
                  height={y(0) - y(v)}
                  rx={2}
                >
                  <title>{`${label} · ${s.name}: ${formatNumber(v)}`}</title>
                </rect>
              );
            })}
            {i % labelEvery === 0 && (
              <text x={centre} y={HEIGHT - PAD.bottom + 16} textAnchor="middle">
                {label}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
