import type { WorstArea } from '../api/heatmap.api';
import type { ApiResource } from '../hooks/use-api';
import { AsyncView } from '../components/async-view';
import { formatNumber, formatPercent } from '../components/format';
import { Panel } from '../components/page-header';
import type { FocusPoint } from './heatmap-link';

type Props = {
  areas: ApiResource<WorstArea[]>;
  minSamples: number;
  focus: FocusPoint | undefined;
  onFocus: (area: WorstArea) => void;
};

/** "pc 62% · switch 38%": who played there, so a red cell is not just where Switch players walk. */
function platformMix(area: WorstArea): string {
  const total = area.platforms.reduce((sum, p) => sum + p.samples, 0);
  return area.platforms.map((p) => `${p.platform} ${formatPercent(total ? p.samples / total : 0, 0)}`).join(' · ');
}

/**
 * The cells with the worst p95 frame time, ranked by the API among cells with at least
 * `minSamples` frame samples (the faded ones never rank). Choosing a row focuses its cell.
 */
export function WorstAreasPanel({ areas, minSamples, focus, onFocus }: Props) {
  return (
    <Panel title="Worst areas" className="worst-areas">
      <p className="muted small">
        By p95 frame time; cells with at least {formatNumber(minSamples)} samples. Hitch: a frame over 33.3 ms.
      </p>
      <AsyncView resource={areas} loadingLabel="Ranking cells…">
        {(list) =>
          list.length === 0 ? (
            <p className="muted small">No cell has enough samples to rank.</p>
          ) : (
            <ol className="worst-areas-list">
              {list.map((area) => {
                const selected = focus?.x === area.x && focus.y === area.y;
                return (
                  <li key={`${area.x},${area.y}`}>
                    <button
                      type="button"
                      className={selected ? 'worst-area selected' : 'worst-area'}
                      aria-pressed={selected}
                      onClick={() => onFocus(area)}
                    >
                      <span className="worst-area-place">
                        {formatNumber(area.x, 1)}, {formatNumber(area.y, 1)}
                      </span>
                      <span className="worst-area-p95">
                        p95 {area.p95_frame_time === null ? '—' : `${formatNumber(area.p95_frame_time, 1)} ms`}
                      </span>
                      <span className="worst-area-facts">
                        {formatNumber(area.samples)} samples · hitches {formatPercent(area.hitch_share_33ms)}
                      </span>
                      <span className="worst-area-platforms">{platformMix(area)}</span>
                    </button>
                  </li>
                );
              })}
            </ol>
          )
        }
      </AsyncView>
    </Panel>
  );
}
