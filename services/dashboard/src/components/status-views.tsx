import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { formatWait, type ApiError } from '../api/api-error';

/** A plain, announced loading line (role=status), not a skeleton maze. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

/**
 * An API error said plainly: what failed and what to do. A 429 counts down the Retry-After
 * seconds and only then offers the retry.
 */
export function ErrorNotice({ error, onRetry, title }: { error: ApiError; onRetry?: () => void; title?: string }) {
  const remaining = useCountdown(error.isRateLimited ? error.retryAfterSeconds : undefined, error);
  const heading = title ?? headingFor(error);
  return (
    <div className="notice notice-error" role="alert">
      <strong>{heading}</strong>
      <p>{error.message}</p>
      {error.isRateLimited && (
        <p className="notice-wait">
          {remaining === undefined
            ? 'The server did not say how long to wait.'
            : remaining > 0
              ? `You can try again in ${formatWait(remaining)}.`
              : 'You can try again now.'}
        </p>
      )}
      {onRetry && (
        <button type="button" className="button button-secondary" onClick={onRetry} disabled={!!remaining}>
          Try again
        </button>
      )}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <strong>{title}</strong>
      {children && <div>{children}</div>}
    </div>
  );
}

function headingFor(error: ApiError): string {
  if (error.status === 0) return 'Network error';
  if (error.isRateLimited) return 'Rate limit reached';
  if (error.status === 401) return 'Signed out';
  if (error.status === 403) return 'Not allowed';
  if (error.status === 404) return 'Not found';
  if (error.status >= 500) return 'Server error';
  return 'Request rejected';
}

/**
 * Seconds left of `seconds` counted from when `since` (the error) appeared, ticking once a
 * second; undefined when there is nothing to count.
 */
function useCountdown(seconds: number | undefined, since: object): number | undefined {
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new error restarts the count
  const deadline = useMemo(() => (seconds === undefined ? undefined : Date.now() + seconds * 1000), [seconds, since]);
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (deadline === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  return deadline === undefined ? undefined : Math.max(0, Math.ceil((deadline - now) / 1000));
}
