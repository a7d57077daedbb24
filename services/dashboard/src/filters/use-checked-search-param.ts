import { useEffect, useState } from 'react';
import { useRouter, useSearchParam } from '../app/router';
import type { ParamCheck } from './param-checks';

/** A URL value a page dropped, for the note that says so. */
export type RejectedParam = { name: string; value: string; reason: string };

/**
 * useSearchParam with a check: a value that fails it reads as the fallback from the first
 * render (so no request ever carries it), is removed from the URL once, and is returned as
 * `rejected` for the page to show until the user picks a value.
 */
export function useCheckedSearchParam(
  name: string,
  fallback: string,
  check: ParamCheck,
): [string, (value: string) => void, RejectedParam | undefined] {
  const { search, pathname, navigate } = useRouter();
  const [value, setValue] = useSearchParam(name, fallback);
  const present = search.has(name);
  const reason = present ? check(value) : undefined;
  const [rejected, setRejected] = useState<RejectedParam>();

  useEffect(() => {
    if (reason === undefined) return;
    setRejected({ name, value, reason });
    // NOTE: read the live URL, not `search`: several checked parameters may drop theirs in the same commit.
    const params = new URLSearchParams(window.location.search);
    params.delete(name);
    const qs = params.toString();
    navigate(pathname + (qs ? `?${qs}` : ''), { replace: true });
  }, [name, value, reason, pathname, navigate]);

  const set = (next: string) => {
    setRejected(undefined);
    setValue(next);
  };
  return [reason === undefined ? value : fallback, set, rejected];
}
