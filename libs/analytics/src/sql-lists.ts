import { join, sql, type SqlFragment } from '@framedeck/clickhouse';

/** `(a, b, c)`-ready list of bound string literals, for `x IN (…)`. */
export function stringList(values: readonly string[]): SqlFragment {
  return join(values.map((v) => sql`${v}`));
}
