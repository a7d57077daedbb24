import type { BuildCell, BuildRegression } from '../api/analytics.api';
import { Link } from '../app/router';
import { DataTable } from '../components/data-table';
import { formatChange, formatNumber } from '../components/format';
import { heatmapLink, type HeatmapPlace } from '../heatmap/heatmap-link';

type Props = {
  projectId: string;
  regressions: readonly BuildRegression[];
  cells: readonly BuildCell[];
  /** Where each row's link opens the heatmap: the compared build, map, cell size and period. */
  place: Omit<HeatmapPlace, 'focus'>;
};

/**
 * The cells that got worse, largest impact (time spent there × delta) first, as the API ranks
 * them, with each build's p95 and samples from the cell itself; every row opens the heatmap
 * of the compared build at that cell.
 */
export function RegressionsList({ projectId, regressions, cells, place }: Props) {
  const cellOf = (r: BuildRegression) => cells.find((c) => c.x === r.x && c.y === r.y);
  return (
    <DataTable
      caption="Cells that got worse, largest impact first"
      rows={regressions}
      rowKey={(r) => `${r.x},${r.y}`}
      empty={<p className="muted small">No cell of this map got significantly worse.</p>}
      columns={[
        { header: '#', align: 'right', cell: (r) => regressions.indexOf(r) + 1 },
        {
          header: 'Cell (x, y)',
          cell: (r) => (
            <Link to={heatmapLink(projectId, { ...place, focus: { x: r.x, y: r.y } })}>
              {formatNumber(r.x, 1)}, {formatNumber(r.y, 1)}
            </Link>
          ),
        },
        { header: 'Δ frame time', align: 'right', cell: (r) => formatChange(r.deltaMs, 2, ' ms') },
        { header: 'Δ %', align: 'right', cell: (r) => formatChange(r.deltaPercent, 1, '%') },
        {
          header: 'p95 base → compared',
          align: 'right',
          cell: (r) => {
            const cell = cellOf(r);
            return `${formatNumber(cell?.base.p95FrameTime, 1)} → ${formatNumber(cell?.target.p95FrameTime, 1)} ms`;
          },
        },
        {
          header: 'Samples base / compared',
          align: 'right',
          cell: (r) => `${formatNumber(cellOf(r)?.base.samples)} / ${formatNumber(r.targetSamples)}`,
        },
      ]}
    />
  );
}
