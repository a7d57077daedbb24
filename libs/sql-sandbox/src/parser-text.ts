import type { QuotedToken } from './sql-lexer.js';

/**
 * The text the parser reads: the ClickHouse forms sqlparser does not know, rewritten in place
 * into forms it parses with the same tables, names and functions. Every rewrite keeps the
 * length and the line breaks (the quoted-token cross-check compares positions), never touches
 * strings or quoted names, and only blanks or swaps keywords, number literals and operators —
 * text that can never name a table. ClickHouse still receives the checked text (CheckedQuery.text).
 *
 *  - join strictness `ANY|ALL|ASOF|SEMI|ANTI` before or after INNER/LEFT/RIGHT/FULL: blanked
 *    (it changes how rows match, not what is read; sqlparser would take `ANY` for an alias);
 *  - `GLOBAL IN` / `GLOBAL NOT IN`: GLOBAL blanked (it says where the right side is computed,
 *    on a cluster; the subquery is checked like any other);
 *  - tuple element `name.1` / `t.name.1`: read as the name `name_1`, an expression the checks
 *    treat like any column (refused where a name could mean a table: FROM, IN (…));
 *  - tuple element after an expression — `f(x).1`, `arr[1].2`, `(a, b).2`, `` `t`.1 `` — and
 *    the ternary `c ? a : b`: the `.`, `?` and `:` read as `+`, so the parts stay expressions
 *    (operator precedence changes, which no check depends on);
 *  - `x IN [a, b]`: read as `x IN (a, b)`, whose items the IN (…) checks then see;
 *  - `LIMIT n WITH TIES`: `WITH TIES` blanked; `LIMIT m, n BY`: the offset `m,` blanked;
 *    a numeric `LIMIT` after a `LIMIT … BY` clause of the same query: blanked (sqlparser
 *    takes one LIMIT per query).
 */
const STRICTNESS = /\b(?:ANY|ALL|ASOF|SEMI|ANTI)\b(?=\s+(?:(?:INNER|LEFT|RIGHT|FULL|OUTER)\s+)*JOIN\b)/gi;
const STRICTNESS_AFTER = /(?<=\b(?:INNER|LEFT|RIGHT|FULL)\s+)(?:ANY|ALL|ASOF|SEMI|ANTI)\b(?=\s+JOIN\b)/gi;
const GLOBAL_IN = /\bGLOBAL\b(?=\s+(?:NOT\s+)?IN\b)/gi;
const WITH_TIES = /(?<=\bLIMIT\s+\d+(?:\s*,\s*\d+)?\s+)WITH\s+TIES\b/gi;
const LIMIT_BY_OFFSET = /(?<=\bLIMIT\s+)\d+\s*,(?=\s*\d+\s+BY\b)/gi;
const LIMIT_BY = /\bLIMIT\s+\d+(?:\s*,\s*\d+|\s+OFFSET\s+\d+)?\s+BY\b/gi;
const NUMERIC_LIMIT = /\bLIMIT\s+\d+(?:\s*,\s*\d+|\s+OFFSET\s+\d+)?(?:\s+WITH\s+TIES)?\b(?!\s*(?:,|BY\b|OFFSET\b))/gi;
const NAME_TUPLE_ELEMENT =
  /(?<=(?:^|[^A-Za-z0-9_.#])[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\.(?=\d+(?![A-Za-z0-9_.]))/g;
const EXPRESSION_TUPLE_ELEMENT = /(?<=[)\]#])\.(?=\d+(?![A-Za-z0-9_.]))/g;
const TERNARY = /\?|(?<!:):(?!:)/g;
const IN_ARRAY = /\bIN\s+\[/gi;

/** `code` is `text` with its quoted tokens masked (maskQuoted). */
export function parserText(text: string, code: string): string {
  const chars = Array.from(text);
  const blank = (index: number, length: number) => {
    for (let i = index; i < index + length; i++) if (chars[i] !== '\n') chars[i] = ' ';
  };
  for (const pattern of [STRICTNESS, STRICTNESS_AFTER, GLOBAL_IN, WITH_TIES, LIMIT_BY_OFFSET]) {
    for (const match of code.matchAll(pattern)) blank(match.index, match[0].length);
  }
  for (const limit of limitsAfterLimitBy(code)) blank(limit.index, limit.length);
  for (const match of code.matchAll(IN_ARRAY)) {
    const open = match.index + match[0].length - 1;
    const close = closingBracket(code, open);
    if (close !== undefined) [chars[open], chars[close]] = ['(', ')'];
  }
  for (const match of code.matchAll(NAME_TUPLE_ELEMENT)) chars[match.index] = '_';
  for (const match of code.matchAll(EXPRESSION_TUPLE_ELEMENT)) chars[match.index] = '+';
  if (code.includes('?')) for (const match of code.matchAll(TERNARY)) chars[match.index] = '+';
  return chars.join('');
}

/** Numeric LIMIT clauses that follow a `LIMIT … BY` of the same query (same depth, no SELECT between). */
function limitsAfterLimitBy(code: string): { index: number; length: number }[] {
  const limitBys = [...code.matchAll(LIMIT_BY)];
  if (limitBys.length === 0) return [];
  const depth = nestingDepths(code);
  const selects = [...code.matchAll(/\bSELECT\b/gi)].map((m) => m.index);
  const found: { index: number; length: number }[] = [];
  for (const limit of code.matchAll(NUMERIC_LIMIT)) {
    const sameQuery = limitBys.some((by) => {
      if (by.index >= limit.index || depth[by.index] !== depth[limit.index]) return false;
      for (let i = by.index; i < limit.index; i++) if (depth[i]! < depth[limit.index]!) return false;
      return !selects.some((s) => s > by.index && s < limit.index && depth[s] === depth[limit.index]);
    });
    if (sameQuery) found.push({ index: limit.index, length: limit[0].length });
  }
  return found;
}

/** Index of the `]` that closes the `[` at `open`, counting ( ) and [ ] in masked code. */
export function closingBracket(code: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const ch = code[i];
    if (ch === '[' || ch === '(') depth += 1;
    else if (ch === ']' || ch === ')') {
      depth -= 1;
      if (depth === 0) return ch === ']' ? i : undefined;
    }
  }
  return undefined;
}

/** For each character of masked code, how many brackets ( and [ enclose it. */
export function nestingDepths(code: string): number[] {
  const depths = new Array<number>(code.length);
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === ')' || ch === ']') depth -= 1;
    depths[i] = depth;
    if (ch === '(' || ch === '[') depth += 1;
  }
  return depths;
}

/**
 * The text with quoted strings and names masked out (`#`, which the lexer refuses anywhere
 * else), so no pattern can match inside them. Outside strings the text is ASCII (the lexer
 * refuses anything else) and each masked character is one code unit, so indexes into the
 * result are code-point indexes of the text.
 */
export function maskQuoted(text: string, quoted: readonly QuotedToken[]): string {
  const masked = Array.from(text);
  const offsets = lineOffsets(masked);
  for (const token of quoted) {
    const start = offsets[token.start.line - 1]! + token.start.column - 1;
    const end = offsets[token.end.line - 1]! + token.end.column - 1;
    for (let i = start; i < end; i++) if (masked[i] !== '\n') masked[i] = '#';
  }
  return masked.join('');
}

function lineOffsets(chars: readonly string[]): number[] {
  const offsets = [0];
  chars.forEach((ch, i) => {
    if (ch === '\n') offsets.push(i + 1);
  });
  return offsets;
}
