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

export type ScannedSql = {
  text: string;
  quoted: QuotedToken[];
  /**
   * `text` with every quoted string and name masked (`#`, which the lexer refuses anywhere else;
   * line breaks kept), so no pattern over it can match inside them. Outside strings the text is
   * ASCII (the lexer refuses anything else), so each masked character is one code unit and
   * indexes into `code` are code-point indexes of `text`.
   */
  code: string;
};

export const MAX_SQL_LENGTH = 65_536;

/** Control characters other than tab and line breaks (the lexer refuses them anywhere). */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** Every code point but a line break: what blanking or masking replaces, one character each. */
const NOT_LINE_BREAK = /[^\n]/gu;

const LINE_FEED = 0x0a;
const SINGLE_QUOTE = 0x27;
const DOUBLE_QUOTE = 0x22;
const BACKTICK = 0x60;
const MINUS = 0x2d;
const SLASH = 0x2f;
const STAR = 0x2a;
const SEMICOLON = 0x3b;
const HASH = 0x23;
const DOLLAR = 0x24;
const BACKSLASH = 0x5c;

/**
 * Scans code units (charCodeAt: no array of characters is built) but counts columns in code
 * points, as sqlparser does: the second half of a surrogate pair does not move the column.
 */
export function scanSql(input: string): ScannedSql {
  if (input.length > MAX_SQL_LENGTH) reject(`The query is longer than ${MAX_SQL_LENGTH} characters.`);
  const control = CONTROL_CHARACTER.exec(input);
  if (control) {
    reject(
      `The query contains a control character (code ${control[0].charCodeAt(0)}); only tab and line breaks are allowed.`,
    );
  }
  const length = input.length;
  /** Code-unit ranges [from, to) blanked (comments, the trailing `;`) or masked (quoted tokens), in order. */
  const edits: { from: number; to: number; fill: ' ' | '#' }[] = [];
  const quoted: QuotedToken[] = [];
  let line = 1;
  let column = 1;
  let i = 0;
  let statementEnd: number | undefined; // index of a trailing `;`

  const where = () => `line ${line}, column ${column}`;
  /** Moves past input[i], keeping the line/column count. */
  const advance = () => {
    const c = input.charCodeAt(i);
    if (c === LINE_FEED) {
      line += 1;
      column = 1;
    } else if (!isTrailSurrogate(c) || !isLeadSurrogate(input.charCodeAt(i - 1))) column += 1;
    i += 1;
  };
  /** Blanks from `from` up to the current position. */
  const blankFrom = (from: number) => edits.push({ from, to: i, fill: ' ' });

  while (i < length) {
    const c = input.charCodeAt(i);
    const next = input.charCodeAt(i + 1); // NaN at the end
    if (
      statementEnd !== undefined &&
      !/\s/.test(input[i]!) &&
      !(c === MINUS && next === MINUS) &&
      !(c === SLASH && next === STAR)
    ) {
      reject(`Only one statement is allowed; found more text after the ';' (${where()}).`);
    }
    if (c === SINGLE_QUOTE || c === DOUBLE_QUOTE || c === BACKTICK) {
      quoted.push(scanQuoted(c));
    } else if (c === MINUS && next === MINUS) {
      const from = i;
      while (i < length && input.charCodeAt(i) !== LINE_FEED) advance();
      blankFrom(from);
    } else if (c === SLASH && next === STAR) {
      const opened = where();
      const from = i;
      advance();
      advance();
      for (;;) {
        if (i >= length) reject(`Unterminated /* comment starting at ${opened}.`);
        const at = input.charCodeAt(i);
        const after = input.charCodeAt(i + 1);
        if (at === SLASH && after === STAR) {
          reject(`Nested /* comments are not allowed (${where()}): ClickHouse versions disagree on where they end.`);
        }
        advance();
        if (at === STAR && after === SLASH) {
          advance();
          break;
        }
      }
      blankFrom(from);
    } else if (c === SEMICOLON) {
      if (statementEnd !== undefined) reject(`Only one statement is allowed (${where()}).`);
      statementEnd = i;
      advance();
      blankFrom(statementEnd);
    } else if (c === HASH) {
      reject(`'#' is not allowed outside a string (${where()}); write comments with -- or /* */.`);
    } else if (c === DOLLAR) {
      reject(`'$' is not allowed outside a string (${where()}); quote strings with single quotes.`);
    } else if (c === BACKSLASH) {
      reject(`A backslash is only allowed inside a string literal (${where()}).`);
    } else if (c > 0x7e) {
      reject(
        `Non-ASCII character ${JSON.stringify(String.fromCodePoint(input.codePointAt(i)!))} outside a string literal (${where()}); ` +
          'quote names with backticks only if they are plain ASCII, and put text in single quotes.',
      );
    } else {
      advance();
    }
  }
  /** The input with the blanked ranges (and the masked ones, if asked) filled, one character per code point. */
  const render = (masked: boolean) => {
    let out = '';
    let at = 0;
    for (const edit of edits) {
      if (edit.fill === '#' && !masked) continue;
      out += input.slice(at, edit.from) + input.slice(edit.from, edit.to).replace(NOT_LINE_BREAK, edit.fill);
      at = edit.to;
    }
    return (out + input.slice(at)).trimEnd();
  };
  return { text: render(false), quoted, code: render(true) };

  /**
   * A '…' string, "…" or `…` identifier. ClickHouse (all versions) ends it at the first
   * quote that is neither doubled nor preceded by a backslash escape. sqlparser does the
   * same for strings but not for backslashes in quoted identifiers, so those are refused.
   */
  function scanQuoted(quote: number): QuotedToken {
    const kind = quote === SINGLE_QUOTE ? 'string' : 'identifier';
    const start = { line, column };
    const from = i;
    advance();
    for (;;) {
      if (i >= length)
        reject(
          `Unterminated ${kind === 'string' ? 'string literal' : 'quoted name'} starting at line ${start.line}, column ${start.column}.`,
        );
      const c = input.charCodeAt(i);
      if (c === BACKSLASH) {
        if (kind === 'identifier') reject(`A backslash is not allowed in a quoted name (${where()}).`);
        advance();
        if (i >= length) continue; // reported as unterminated above
        advance();
        // An escaped character outside the BMP is two code units: the second is skipped like any.
      } else if (c === quote) {
        advance();
        if (input.charCodeAt(i) !== quote) break;
        advance(); // a doubled quote stands for one quote character
      } else {
        advance();
      }
    }
    edits.push({ from, to: i, fill: '#' });
    return { kind, start, end: { line, column } };
  }
}

const isLeadSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isTrailSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;
