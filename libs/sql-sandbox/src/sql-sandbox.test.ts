import { describe, expect, it } from 'vitest';
import { toSandboxFailure } from './clickhouse-diagnostic.js';
import { jsonEachRowBytes, type RowsOutcome } from './result-rows.js';
import { SqlRejection } from './sandbox-errors.js';

/** A response body as ClickHouse sends it: JSONEachRow bytes cut into chunks anywhere. */
async function* chunksOf(text: string, size = 7): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function collect(text: string, maxRows: number, maxBytes = 1_000_000, size?: number) {
  const outcome: RowsOutcome = { rowCount: 0, bytes: 0, truncated: false };
  const rows: string[] = [];
  for await (const row of jsonEachRowBytes(chunksOf(text, size), { maxRows, maxBytes }, outcome)) {
    rows.push(row.toString());
  }
  return { rows, outcome };
}

describe('jsonEachRowBytes', () => {
  it('reports the exception block a modern server wrote before it reset the connection (not the reset)', async () => {
    async function* thenReset(): AsyncGenerator<Buffer> {
      yield Buffer.from('{"i":1}\n\r\n__exception__\r\ntag\r\nCode: 395. DB::Exception: Value passed to ');
      yield Buffer.from("'throwIf' function is non-zero. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 26.7.2.1)\n");
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    }
    const outcome: RowsOutcome = { rowCount: 0, bytes: 0, truncated: false };
    const error = await (async () => {
      for await (const _ of jsonEachRowBytes(thenReset(), { maxRows: 10, maxBytes: 1_000 }, outcome)) {
        // read
      }
    })().catch((e: unknown) => e);
    const failure = toSandboxFailure(error, { projectDatabase: 'fd_p_x', sharedDatabase: 'framedeck' });
    expect(failure).toBeInstanceOf(SqlRejection);
    expect(failure.message).toBe("ClickHouse: Value passed to 'throwIf' function is non-zero");
  });

  const lines = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ i, s: 'é\\n' })).join('\n') + '\n';

  it('yields every row as ClickHouse wrote it, whatever the chunking', async () => {
    for (const size of [1, 3, 7, 1000]) {
      const { rows, outcome } = await collect(lines(3), 3, 1_000_000, size);
      expect(rows.map((r) => JSON.parse(r))).toEqual([0, 1, 2].map((i) => ({ i, s: 'é\\n' })));
      expect(outcome).toMatchObject({ rowCount: 3, truncated: false });
    }
  });

  it('stops after the limit and reports the cut only when another row exists', async () => {
    let produced = 0;
    async function* endless() {
      for (;;) {
        produced += 1;
        yield Buffer.from(`{"i":${produced}}\n`);
      }
    }
    const outcome: RowsOutcome = { rowCount: 0, bytes: 0, truncated: false };
    const rows = [];
    for await (const row of jsonEachRowBytes(endless(), { maxRows: 5, maxBytes: 1_000 }, outcome)) rows.push(row);
    expect(rows).toHaveLength(5);
    expect(outcome).toMatchObject({ rowCount: 5, truncated: true, cutBy: 'rows' });
    expect(produced).toBe(6);
  });

  it('stops at the byte cap, also in the middle of a row larger than what is left', async () => {
    const big = `${JSON.stringify({ a: 'x'.repeat(10) })}\n${JSON.stringify({ a: 'y'.repeat(100) })}\n`;
    const { rows, outcome } = await collect(big, 10, 50);
    expect(rows).toHaveLength(1);
    expect(outcome).toMatchObject({ rowCount: 1, truncated: true, cutBy: 'bytes' });
  });

  it('turns an exception written into the stream (18.16 text, modern block or object) into ClickHouse’s diagnostic', async () => {
    const context = { projectDatabase: 'fd_p_x', sharedDatabase: 'framedeck' };
    for (const tail of [
      'Code: 396, e.displayText() = DB::Exception: Limit for result exceeded, max rows: 1.00 million, e.what() = DB::Exception\n',
      '\r\n__exception__\r\nabc\r\nCode: 396. DB::Exception: Limit for result exceeded, max rows: 1.00 million. (TOO_MANY_ROWS_OR_BYTES) (version 26.7.2.1)\n80 abc\r\n__exception__\r\n',
      '{"exception": "Code: 396. DB::Exception: Limit for result exceeded, max rows: 1.00 million. (TOO_MANY_ROWS_OR_BYTES)"}\n',
    ]) {
      const error = await collect(lines(2) + tail, 10).catch((e: unknown) => e);
      const failure = toSandboxFailure(error, context);
      expect(failure).toBeInstanceOf(SqlRejection);
      expect(failure.message).toMatch(/^ClickHouse: Limit for result exceeded, max rows: 1.00 million/);
    }
  });
});
