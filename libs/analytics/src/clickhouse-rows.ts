import { isConnectionError, type ClickHouseClient, type SqlFragment } from '@framedeck/clickhouse';

/**
 * Settings every analytics read runs with.
 * NOTE: ClickHouse quotes 64-bit integers in JSON by default (so JavaScript cannot lose
 * precision); our counts stay far below 2^53, and callers want numbers.
 */
export const ANALYTICS_READ_SETTINGS = { output_format_json_quote_64bit_integers: 0 } as const;

/**
 * Runs a read once more when its connection broke before an answer.
 * NOTE: ClickHouse 18.16 closes idle keep-alive sockets after 3 s; a request that picks such a
 * socket as it closes fails with ECONNRESET / "socket hang up". A SELECT is safe to repeat.
 */
async function readWithRetry<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!isConnectionError(error)) throw error;
    return read();
  }
}

/** Runs one SELECT and returns its rows as objects. */
export async function selectRows<T>(clickhouse: ClickHouseClient, query: SqlFragment): Promise<T[]> {
  return readWithRetry(async () => {
    const result = await clickhouse.query({
      query: query.text,
      format: 'JSONEachRow',
      clickhouse_settings: ANALYTICS_READ_SETTINGS,
    });
    return result.json<T>();
  });
}

/** Runs one SELECT in the JSON format, which also carries the WITH TOTALS row and the row count before LIMIT. */
export async function selectWithTotals<T>(
  clickhouse: ClickHouseClient,
  query: SqlFragment,
): Promise<{ data: T[]; totals: T | undefined; rowsBeforeLimit: number }> {
  const body = await readWithRetry(async () => {
    const result = await clickhouse.query({
      query: query.text,
      format: 'JSON',
      clickhouse_settings: ANALYTICS_READ_SETTINGS,
    });
    return result.json<T>();
  });
  return {
    data: body.data,
    totals: (body as { totals?: T }).totals,
    rowsBeforeLimit: body.rows_before_limit_at_least ?? body.data.length,
  };
}
