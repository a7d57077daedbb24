import { reject } from './sandbox-errors.js';

/**
 * Lexical guard: the first wall, run before the parser.
 *
 * The parser (sqlparser-rs) and ClickHouse each have their own tokenizer. If they disagree on
 * where a string literal or a comment ends, text the checker took for data could be code to
 * ClickHouse (e.g. sqlparser nests `/* /* *\/ *\/` comments, ClickHouse 18.16 does not; modern
 * ClickHouse treats `#` and `$$...$$` specially, 18.16 does not). So this scanner follows
 * ClickHouse's rules for the token kinds that can hide text — string literals, quoted
 * identifiers, comments — and refuses every construct on which versions or tokenizers
 * differ. It returns the text that is both checked and sent: comments blanked to spaces
 * (offsets and lines kept, so ClickHouse's "at position N" still points at the analyst's
 * text) and one trailing semicolon dropped. It also returns where each quoted token lies, so
 * the checker can prove the parser saw exactly the same ones.
 */

export type QuotedToken = {
  kind: 'string' | 'identifier';
  /** Position of the opening quote and just past the closing one, as sqlparser counts them: 1-based line, 1-based column in code points. */
  start: { line: number; column: number };
  end: { line: number; column: number };
};

export type ScannedSql = { text: string; quoted: QuotedToken[] };

export const MAX_SQL_LENGTH = 65_536;

export function scanSql(input: string): ScannedSql {
  if (input.length > MAX_SQL_LENGTH) reject(`The query is longer than ${MAX_SQL_LENGTH} characters.`);
  const chars = Array.from(input); // code points: columns are counted the way sqlparser counts them
  const out = chars.slice();
  const quoted: QuotedToken[] = [];
  let line = 1;
  let column = 1;
  let i = 0;
  let statementEnd: number | undefined; // index of a trailing `;`

  const where = () => `line ${line}, column ${column}`;
  /** Moves past chars[i], keeping the line/column count. */
  const advance = () => {
    if (chars[i] === '\n') {
      line += 1;
      column = 1;
    } else column += 1;
    i += 1;
  };
  const blank = () => {
    if (chars[i] !== '\n') out[i] = ' ';
    advance();
  };

  for (const ch of chars) {
    const code = ch.codePointAt(0)!;
    if ((code < 0x20 && ch !== '\t' && ch !== '\n' && ch !== '\r') || code === 0x7f) {
      reject(`The query contains a control character (code ${code}); only tab and line breaks are allowed.`);
    }
  }

  while (i < chars.length) {
    const ch = chars[i]!;
    const next = chars[i + 1];
    if (
      statementEnd !== undefined &&
      !/\s/.test(ch) &&
      !(ch === '-' && next === '-') &&
      !(ch === '/' && next === '*')
    ) {
      reject(`Only one statement is allowed; found more text after the ';' (${where()}).`);
    }
    if (ch === "'" || ch === '"' || ch === '`') {
      quoted.push(scanQuoted(ch));
    } else if (ch === '-' && next === '-') {
      while (i < chars.length && chars[i] !== '\n') blank();
    } else if (ch === '/' && next === '*') {
      const opened = where();
      blank();
      blank();
      for (;;) {
        if (i >= chars.length) reject(`Unterminated /* comment starting at ${opened}.`);
        if (chars[i] === '/' && chars[i + 1] === '*') {
          reject(`Nested /* comments are not allowed (${where()}): ClickHouse versions disagree on where they end.`);
        }
        if (chars[i] === '*' && chars[i + 1] === '/') {
          blank();
          blank();
          break;
        }
        blank();
      }
    } else if (ch === ';') {
      if (statementEnd !== undefined) reject(`Only one statement is allowed (${where()}).`);
      statementEnd = i;
      blank();
    } else if (ch === '#') {
      reject(`'#' is not allowed outside a string (${where()}); write comments with -- or /* */.`);
    } else if (ch === '$') {
      reject(`'$' is not allowed outside a string (${where()}); quote strings with single quotes.`);
    } else if (ch === '\\') {
      reject(`A backslash is only allowed inside a string literal (${where()}).`);
    } else if (ch.codePointAt(0)! > 0x7e) {
      reject(
        `Non-ASCII character ${JSON.stringify(ch)} outside a string literal (${where()}); ` +
          'quote names with backticks only if they are plain ASCII, and put text in single quotes.',
      );
    } else {
      advance();
    }
  }
  return { text: out.join('').trimEnd(), quoted };

  /**
   * A '…' string, "…" or `…` identifier. ClickHouse (all versions) ends it at the first
   * quote that is neither doubled nor preceded by a backslash escape. sqlparser does the
   * same for strings but not for backslashes in quoted identifiers, so those are refused.
   */
  function scanQuoted(quote: string): QuotedToken {
    const kind = quote === "'" ? 'string' : 'identifier';
    const start = { line, column };
    advance();
    for (;;) {
      if (i >= chars.length)
        reject(
          `Unterminated ${kind === 'string' ? 'string literal' : 'quoted name'} starting at line ${start.line}, column ${start.column}.`,
        );
      const c = chars[i]!;
      if (c === '\\') {
        if (kind === 'identifier') reject(`A backslash is not allowed in a quoted name (${where()}).`);
        advance();
        if (i >= chars.length) continue; // reported as unterminated above
        advance();
      } else if (c === quote) {
        advance();
        if (chars[i] !== quote) break;
        advance(); // a doubled quote stands for one quote character
      } else {
        advance();
      }
    }
    return { kind, start, end: { line, column } };
  }
}
