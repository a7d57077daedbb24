/**
 * A number chosen from a URL's query string, kept only when it is one the page offers: a
 * hand-edited or stale link (`?cellSize=7`) falls back to the default instead of sending the
 * API a value it refuses with 400 on every refresh.
 */
export function allowedOr<T extends number>(value: string, allowed: readonly T[], fallback: T): T {
  const n = Number(value);
  return allowed.find((a) => a === n) ?? fallback;
}
