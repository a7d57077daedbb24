/**
 * A number chosen from a URL's query string, kept only when it is one the page offers: a
 * hand-edited or stale link (`?cellSize=7`) falls back to the default instead of sending the
 * API a value it refuses with 400 on every refresh.
 */
export function allowedOr(value: string, allowed: readonly number[], fallback: number): number {
  const n = Number(value);
  return allowed.includes(n) ? n : fallback;
}
