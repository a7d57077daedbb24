import { engineFromVersion, renderSql, type ClickHouseReader, type SqlFragment } from '@framedeck/clickhouse';

// The unit tests' stand-in for a reader (not built: tsconfig excludes *.testing.ts).

export const legacy = engineFromVersion('18.16.1');

/**
 * The SQL each query sends to a server of `engine`, in the order sent; the n-th is answered with
 * `answer(n)` (no rows by default), which may hold the answer back.
 */
export async function sentSql(
  run: (reader: ClickHouseReader) => Promise<unknown>,
  answer: (n: number) => unknown[] | Promise<unknown[]> = () => [],
  engine = legacy,
): Promise<string[]> {
  const sent: string[] = [];
  const send = async (query: SqlFragment) => {
    sent.push(renderSql(query, 'literals').query);
    return answer(sent.length);
  };
  const reader = {
    engine: async () => engine,
    rows: send,
    // The same rows as JSON lines, as ClickHouse writes them.
    jsonLines: async (query: SqlFragment) =>
      Buffer.from((await send(query)).map((row) => `${JSON.stringify(row)}\n`).join('')),
  } as unknown as ClickHouseReader;
  await run(reader);
  return sent;
}
