import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/api-error';

export type ApiState<T> =
  | { status: 'loading'; data: T | undefined; error: undefined }
  | { status: 'ready'; data: T; error: undefined }
  | { status: 'error'; data: T | undefined; error: ApiError };

export type ApiResource<T> = ApiState<T> & { reload: () => void };

/**
 * Runs `load` now and whenever `deps` change; aborts the previous request so a slow old answer
 * never overwrites a newer one. Keeps the last data while reloading (no flashing tables).
 */
export function useApi<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): ApiResource<T> {
  const [state, setState] = useState<ApiState<T>>({ status: 'loading', data: undefined, error: undefined });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ status: 'loading', data: s.data, error: undefined }));
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'ready', data, error: undefined });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState((s) => ({ status: 'error', data: s.data, error: toApiError(error) }));
      },
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller lists what `load` reads
  }, [...deps, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, reload };
}

/** Runs a mutation (create, delete…) with a pending flag and its error. */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const run = useCallback(
    async (...args: A): Promise<R | undefined> => {
      setPending(true);
      setError(undefined);
      try {
        return await action(...args);
      } catch (e) {
        setError(toApiError(e));
        return undefined;
      } finally {
        setPending(false);
      }
    },
    [action],
  );
  return { run, pending, error, clearError: () => setError(undefined) };
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, error instanceof Error ? error.message : String(error), undefined, undefined);
}
