import type { ClickHouseClient, SqlFragment } from '@framedeck/clickhouse';

/**
 * Settings every analytics read runs with.
 * NOTE: ClickHouse quotes 64-bit integers in JSON by default (so JavaScript cannot lose
 * precision); our counts stay far below 2^53, and callers want numbers.
 */
export const ANALYTICS_READ_SETTINGS = { output_format_json_quote_64bit_integers: 0 } as const;

/** Runs one SELECT and returns its rows as objects. */
export async function selectRows<T>(clickhouse: ClickHouseClient, query: SqlFragment): Promise<T[]> {
  const result = await clickhouse.query({
    query: query.text,
    format: 'JSONEachRow',
    clickhouse_settings: ANALYTICS_READ_SETTINGS,
  });
  return result.json<T>();
}

/** Runs one SELECT in the JSON format, which also carries the WITH TOTALS row and the row count before LIMIT. */
export async function selectWithTotals<T>(
  clickhouse: ClickHouseClient,
  query: SqlFragment,
): Promise<{ data: T[]; totals: T | undefined; rowsBeforeLimit: number }> {
  const result = await clickhouse.query({
    query: query.text,
    format: 'JSON',
    clickhouse_settings: ANALYTICS_READ_SETTINGS,
  });
  const body = await result.json<T>();
  return {
    data: body.data,
    totals: (body as { totals?: T }).totals,
    rowsBeforeLimit: body.rows_before_limit_at_least ?? body.data.length,
  };
}
