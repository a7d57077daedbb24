import type { ClickHouseReader, SqlFragment } from '@framedeck/clickhouse';

/**
 * A reader that keeps the text of every query it sends: how a test checks that an answer came
 * from the rollups (the table it names) and not from a scan of events.
 */
export function recordingClient(reader: ClickHouseReader): { client: ClickHouseReader; sent: string[] } {
  const sent: string[] = [];
  const recording = new Proxy(reader, {
    get(target, property) {
      if (property === 'rows' || property === 'rowsWithTotals' || property === 'jsonLines') {
        return (query: SqlFragment) => {
          sent.push(query.text);
          return target[property](query);
        };
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { client: recording, sent };
}

/** Whether a query's text names `table` as a whole word (`rollup_x` is not `rollup_x_weekly`). */
export function namesTable(text: string, table: string): boolean {
  return new RegExp(`\\b${table}\\b`).test(text);
}
