import type { RejectedParam } from './use-checked-search-param';

/** Says which values of the link were ignored and why (shown once they were dropped from the URL). */
export function RejectedParamsNote({ rejected }: { rejected: readonly (RejectedParam | undefined)[] }) {
  const shown = rejected.filter((r): r is RejectedParam => r !== undefined);
  if (shown.length === 0) return null;
  return (
    <div className="notice notice-warn" role="status" data-testid="rejected-params">
      <strong>Some settings in the link were not valid and were reset</strong>
      <ul>
        {shown.map((r) => (
          <li key={r.name}>
            <code>
              {r.name}={r.value}
            </code>
            : {r.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}
