import type { BuildCell, BuildComparison } from '../api/analytics.api';
import { formatChange, formatNumber } from '../components/format';
import { cellPaint, DIFF_SCALE_PERCENT, DIFF_TICKS, divergingGradient, REGRESSION_OUTLINE } from './diff-scale';

type Test = Pick<BuildComparison, 'criticalZ' | 'testedCells' | 'thresholdPercent' | 'minSamples'> & {
  confidence: string;
};

/** The diff's colour scale, what the outline and greys mean, and the test that decides a cell. */
export function DiffLegend({ test }: { test: Test }) {
  const swatch = (verdict: BuildCell['verdict'], deltaPercent: number | null) => {
    const { rgb, alpha } = cellPaint({ verdict, deltaPercent });
    return { background: `rgb(${rgb.join(' ')} / ${alpha})` };
  };
  return (
    <div className="diff-legend">
      <figure className="legend" aria-label={`Colour scale: change of mean frame time, ±${DIFF_SCALE_PERCENT}%`}>
        <figcaption className="legend-caption">
          Change of mean frame time, compared build against base (blue faster, red slower; beyond ±{DIFF_SCALE_PERCENT}%
          drawn at the ends)
        </figcaption>
        <div className="legend-bar" style={{ backgroundImage: divergingGradient() }} />
        <div className="legend-ticks">
          {DIFF_TICKS.map((t) => (
            <span key={t}>{formatChange(t, 0, '%')}</span>
          ))}
        </div>
      </figure>
      <ul className="diff-legend-keys small">
        <li>
          <span
            className="diff-swatch"
            style={{ ...swatch('worse', 20), outline: `2px solid ${REGRESSION_OUTLINE}` }}
          />
          Outlined: worse (a regression)
        </li>
        <li>
          <span className="diff-swatch" style={swatch('unchanged', 0)} />
          Grey: no significant change
        </li>
        <li>
          <span className="diff-swatch" style={swatch('insufficient', null)} />
          Faded: too few samples to test
        </li>
      </ul>
      <p className="muted small" data-testid="diff-test">
        A cell is worse or better when its mean frame time (per platform, weighted as in the base build) moved more than{' '}
        {test.thresholdPercent}% and beyond chance at {formatNumber(Number(test.confidence) * 100)}% confidence over the{' '}
        {formatNumber(test.testedCells ?? 0)} cells tested (|z| &gt; {formatNumber(test.criticalZ ?? null, 2)}
        ), with at least {formatNumber(test.minSamples)} frame samples per build and platform in the cell.
      </p>
    </div>
  );
}
