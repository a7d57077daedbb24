/**
 * Splits ClickHouse's JSONEachRow bytes into rows without parsing them: one JSON object per
 * line (ClickHouse escapes newlines inside strings), so a row is the bytes up to the next
 * `\n`. Anything else in the stream is an exception ClickHouse wrote after the first rows
 * were sent: 18.16 writes its text ("Code: 396, e.displayText() = …"), modern servers an
 * `__exception__` block or an `{"exception": "Code: …"}` object; the rest of the stream is
 * collected (bounded) and thrown as an Error carrying that text.
 */
const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;
const MAX_EXCEPTION_TEXT = 64 * 1024;
const EXCEPTION_ROW = /^\{"exception":\s*"(Code: \d+[\s\S]*)"\}\s*$/;

export type RowLimits = {
  /** Rows kept; reading stops at the row after the last one kept. */
  maxRows: number;
  /** Bytes of row text kept (the sum of every kept row's length). */
  maxBytes: number;
};

/** What the reader tells its caller once the rows are done. */
export type RowsOutcome = { rowCount: number; bytes: number; truncated: boolean; cutBy?: 'rows' | 'bytes' };

/**
 * Yields each row's JSON text as bytes (a view into the chunk when the row lies in one chunk)
 * until `maxRows` or `maxBytes` is reached, then stops reading; `outcome` is filled when the
 * generator returns. Memory held: one chunk plus at most one row of at most `maxBytes`.
 */
export async function* jsonEachRowBytes(
  chunks: AsyncIterable<Buffer>,
  limits: RowLimits,
  outcome: RowsOutcome,
): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let exceptionText = undefined as string | undefined; // set inside finishRow: no narrowing
  const finishRow = (row: Buffer): 'keep' | 'skip' | 'stop' => {
    if (row.length === 0 || (row.length === 1 && row[0] === 0x0d)) return 'skip';
    if (row[0] !== OPEN_BRACE || EXCEPTION_ROW.test(row.toString('utf8'))) {
      exceptionText = row.toString('utf8');
      return 'stop';
    }
    if (outcome.rowCount >= limits.maxRows) {
      outcome.truncated = true;
      outcome.cutBy = 'rows';
      return 'stop';
    }
    if (outcome.bytes + row.length > limits.maxBytes) {
      outcome.truncated = true;
      outcome.cutBy = 'bytes';
      return 'stop';
    }
    return 'keep';
  };
  try {
    for await (const chunk of chunks) {
      if (exceptionText !== undefined) {
        if (exceptionText.length < MAX_EXCEPTION_TEXT) exceptionText += chunk.toString('utf8');
        continue;
      }
      let start = 0;
      for (;;) {
        const end = chunk.indexOf(NEWLINE, start);
        if (end === -1) {
          const rest = chunk.subarray(start);
          pending.push(rest);
          pendingLength += rest.length;
          // A row that cannot fit any more is cut by bytes before it is read to its end.
          if (outcome.bytes + pendingLength > limits.maxBytes && pending[0]![0] === OPEN_BRACE) {
            outcome.truncated = true;
            outcome.cutBy = 'bytes';
            return;
          }
          break;
        }
        const piece = chunk.subarray(start, end);
        const row = pendingLength === 0 ? piece : Buffer.concat([...pending, piece]);
        pending = [];
        pendingLength = 0;
        start = end + 1;
        const verdict = finishRow(row);
        if (verdict === 'stop') {
          const text: string | undefined = exceptionText;
          if (text === undefined) return;
          exceptionText = `${text}\n${chunk.subarray(start).toString('utf8')}`;
          break;
        }
        if (verdict === 'keep') {
          outcome.rowCount += 1;
          outcome.bytes += row.length;
          yield row;
        }
      }
    }
  } catch (error) {
    // Modern servers reset the connection right after writing the exception block: the
    // server's own diagnostic, if it arrived, is the failure to report, not the reset.
    if (exceptionText === undefined) throw error;
  }
  if (exceptionText === undefined && pendingLength > 0) {
    const verdict = finishRow(Buffer.concat(pending));
    if (verdict === 'keep') {
      const row = Buffer.concat(pending);
      outcome.rowCount += 1;
      outcome.bytes += row.length;
      yield row;
    }
  }
  if (exceptionText !== undefined) throw new Error(exceptionFrom(exceptionText));
}

/** ClickHouse's exception text out of whichever form the server wrote it in. */
function exceptionFrom(text: string): string {
  const row = EXCEPTION_ROW.exec(text.split('\n')[0] ?? '');
  if (row) {
    try {
      return JSON.parse(`"${row[1]}"`) as string;
    } catch {
      return row[1]!;
    }
  }
  // The message is one line: 18.16 ends it with a line break, modern servers with
  // "\n<length> <tag>\r\n__exception__".
  const code = text.indexOf('Code:');
  const message = code >= 0 ? text.slice(code) : text;
  return message.split('\n')[0]!.trim();
}
