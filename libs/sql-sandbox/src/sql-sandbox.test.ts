import { describe, expect, it } from 'vitest';
import { toSandboxFailure } from './clickhouse-diagnostic.js';
import { SqlRejection } from './sandbox-errors.js';
import { readRows } from './sql-sandbox.js';

/** A result stream as @clickhouse/client yields it: batches of rows with their JSON text. */
async function* streamOf(lines: string[], batchSize = 2): AsyncGenerator<{ text: string }[]> {
  for (let i = 0; i < lines.length; i += batchSize) yield lines.slice(i, i + batchSize).map((text) => ({ text }));
}

describe('readRows', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ i }));

  it('returns every row when there are at most `limit`', async () => {
    expect(await readRows(streamOf(rows(3)), 3)).toEqual({
      rows: [{ i: 0 }, { i: 1 }, { i: 2 }],
      rowCount: 3,
      truncated: false,
    });
  });

  it('stops after limit + 1 rows and reports the cut', async () => {
    let produced = 0;
    async function* endless() {
      for (;;) {
        produced += 1;
        yield [{ text: JSON.stringify({ i: produced }) }];
      }
    }
    const result = await readRows(endless(), 5);
    expect(result).toMatchObject({ rowCount: 5, truncated: true });
    expect(produced).toBe(6);
  });

  it('turns an exception written into the stream (18.16) into ClickHouse’s diagnostic', async () => {
    const lines = [
      ...rows(2),
      'Code: 396, e.displayText() = DB::Exception: Limit for result exceeded, max rows: 1.00 million, e.what() = DB::Exception',
    ];
    const error = await readRows(streamOf(lines), 10).catch((e: unknown) => e);
    const failure = toSandboxFailure(error, { projectDatabase: 'fd_p_x', sharedDatabase: 'framedeck' });
    expect(failure).toBeInstanceOf(SqlRejection);
    expect(failure.message).toBe('ClickHouse: Limit for result exceeded, max rows: 1.00 million');
  });
});
