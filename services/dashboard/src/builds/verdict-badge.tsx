import type { BuildVerdict } from '../api/analytics.api';

/** A verdict as a badge; null (a metric without enough samples) reads as insufficient. */
export function VerdictBadge({ verdict }: { verdict: BuildVerdict | null }) {
  if (verdict === 'better') return <span className="badge badge-good">Better</span>;
  if (verdict === 'worse') return <span className="badge badge-bad">Worse</span>;
  if (verdict === 'unchanged') return <span className="badge">Unchanged</span>;
  return (
    <span className="badge badge-muted" title="Too few samples for a verdict">
      Not enough data
    </span>
  );
}
