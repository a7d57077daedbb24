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

/**
 * An `answer` for sentSql that answers nothing until the second query is sent: queries meant to
 * run at once pass, queries sent one after the other fail with `what` ("the second half was not
 * sent while the first ran"). Then the n-th query is answered with `rows(n)`.
 */
export function answeredOnceTwoSent(what: string, rows: (n: number) => unknown[] = () => []) {
  let secondSent!: () => void;
  const gate = new Promise<void>((resolve) => (secondSent = resolve));
  return async (n: number): Promise<unknown[]> => {
    if (n === 2) secondSent();
    const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(what)), 2_000));
    await Promise.race([gate, late]);
    return rows(n);
  };
}
