import type { ReactNode } from 'react';
import type { ApiResource } from '../hooks/use-api';
import { ErrorNotice, Loading } from './status-views';

/**
 * Renders a resource: its error (with retry), a loading line the first time, then `children`
 * with the data. While reloading, the previous data stays on screen, marked busy.
 */
export function AsyncView<T>({
  resource,
  children,
  loadingLabel,
}: {
  resource: ApiResource<T>;
  children: (data: T) => ReactNode;
  loadingLabel?: string;
}) {
  if (resource.status === 'error' && resource.data === undefined) {
    return <ErrorNotice error={resource.error} onRetry={resource.reload} />;
  }
  if (resource.data === undefined) return <Loading label={loadingLabel} />;
  return (
    <div
      aria-busy={resource.status === 'loading'}
      className={resource.status === 'loading' ? 'is-refreshing' : undefined}
    >
      {resource.status === 'error' && <ErrorNotice error={resource.error} onRetry={resource.reload} />}
      {children(resource.data)}
    </div>
  );
}
