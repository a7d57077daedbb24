import { formatCompact, formatNumber } from '../components/format';
import { linear, niceTicks } from './chart-scale';

export type BarDatum = { label: string; value: number };

const WIDTH = 720;
const ROW = 28;
const LABEL_WIDTH = 170;
const VALUE_WIDTH = 70;

/**
 * Horizontal bars (categories with long names read well). An SVG of our own: a heavy chart
 * library would weigh more than the rest of the dashboard. The table of the same numbers is
 * the accessible version; the SVG is labelled as a figure.
 */
export function BarChart({ data, title }: { data: readonly BarDatum[]; title: string }) {
  const max = Math.max(0, ...data.map((d) => d.value));
  const ticks = niceTicks(max);
  const x = linear(ticks[ticks.length - 1]!, LABEL_WIDTH, WIDTH - VALUE_WIDTH);
  const height = data.length * ROW + 24;
  return (
    <svg className="chart" viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={title}>
      {ticks.map((t) => (
        <g key={t}>
          <line className="grid-line" x1={x(t)} x2={x(t)} y1={0} y2={height - 20} />
          <text x={x(t)} y={height - 6} textAnchor="middle">
            {formatCompact(t)}
          </text>
        </g>
      ))}
      {data.map((d, i) => (
        <g key={d.label} transform={`translate(0 ${i * ROW})`}>
          <text x={LABEL_WIDTH - 10} y={ROW / 2 + 4} textAnchor="end">
            {truncate(d.label, 24)}
          </text>
          <rect
            className="bar"
            x={LABEL_WIDTH}
            y={5}
            width={Math.max(1, x(d.value) - LABEL_WIDTH)}
            height={ROW - 10}
            rx={3}
          >
            <title>{`${d.label}: ${formatNumber(d.value)}`}</title>
          </rect>
          <text x={x(d.value) + 6} y={ROW / 2 + 4}>
            {formatCompact(d.value)}
          </text>
        </g>
      ))}
    </svg>
  );
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
