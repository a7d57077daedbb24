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
const STRICTNESS_AFTER = /\b(?:INNER|LEFT|RIGHT|FULL)\s+(ANY|ALL|ASOF|SEMI|ANTI)\b(?=\s+JOIN\b)/gi;
const GLOBAL_IN = /\bGLOBAL\b(?=\s+(?:NOT\s+)?IN\b)/gi;
const WITH_TIES = /\bLIMIT\s+\d+(?:\s*,\s*\d+)?\s+(WITH\s+TIES)\b/gi;
const LIMIT_BY_OFFSET = /\bLIMIT\s+(\d+\s*,)(?=\s*\d+\s+BY\b)/gi;
const LIMIT_BY = /\bLIMIT\s+\d+(?:\s*,\s*\d+|\s+OFFSET\s+\d+)?\s+BY\b/gi;
const NUMERIC_LIMIT = /\bLIMIT\s+\d+(?:\s*,\s*\d+|\s+OFFSET\s+\d+)?(?:\s+WITH\s+TIES)?\b(?!\s*(?:,|BY\b|OFFSET\b))/gi;
// The dot first, then what precedes it (a lookbehind): the scan stops only at dots.
const NAME_TUPLE_ELEMENT =
  /\.(?<=(?:^|[^A-Za-z0-9_.#])[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\.)(?=\d+(?![A-Za-z0-9_.]))/g;
const EXPRESSION_TUPLE_ELEMENT = /\.(?<=[)\]#]\.)(?=\d+(?![A-Za-z0-9_.]))/g;
const TERNARY = /\?|(?<!:):(?!:)/g;
const IN_ARRAY = /\bIN\s+\[/gi;

/**
 * Each rewrite with a word or character its pattern cannot match without: a query without it
 * skips that pattern (most queries use few of these forms, and the scans add up).
 */
const REWRITES: readonly { needs: RegExp; patterns: readonly RegExp[] }[] = [
  { needs: /JOIN/i, patterns: [STRICTNESS, STRICTNESS_AFTER] },
  { needs: /GLOBAL/i, patterns: [GLOBAL_IN] },
  { needs: /TIES/i, patterns: [WITH_TIES] },
  { needs: /\bBY\b/i, patterns: [LIMIT_BY_OFFSET] },
];
const TUPLE_ELEMENT_DOT = /\.\d/;

/** `code` is `text` with its quoted tokens masked (ScannedSql.code). */
export function parserText(text: string, code: string): string {
  // The characters of `text`, copied on the first change only.
  let chars: string[] | undefined;
  const edit = () => (chars ??= Array.from(text));
  const blank = (index: number, length: number) => {
    const out = edit();
    for (let i = index; i < index + length; i++) if (out[i] !== '\n') out[i] = ' ';
  };
  for (const { needs, patterns } of REWRITES) {
    if (!needs.test(code)) continue;
    for (const pattern of patterns) {
      for (const match of code.matchAll(pattern)) {
        // What is blanked: the pattern's group when it has one (it ends the match), else the match.
        const part = match[1] ?? match[0];
        blank(match.index + match[0].length - part.length, part.length);
      }
    }
  }
  for (const limit of limitsAfterLimitBy(code)) blank(limit.index, limit.length);
  if (code.includes('[')) {
    for (const match of code.matchAll(IN_ARRAY)) {
      const open = match.index + match[0].length - 1;
      const close = closingBracket(code, open);
      if (close !== undefined) {
        const out = edit();
        [out[open], out[close]] = ['(', ')'];
      }
    }
  }
  if (TUPLE_ELEMENT_DOT.test(code)) {
    for (const match of code.matchAll(NAME_TUPLE_ELEMENT)) edit()[match.index] = '_';
    for (const match of code.matchAll(EXPRESSION_TUPLE_ELEMENT)) edit()[match.index] = '+';
  }
  if (code.includes('?')) for (const match of code.matchAll(TERNARY)) edit()[match.index] = '+';
  return chars ? chars.join('') : text;
}

/** Numeric LIMIT clauses that follow a `LIMIT … BY` of the same query (same depth, no SELECT between). */
function limitsAfterLimitBy(code: string): { index: number; length: number }[] {
  if (!/\bBY\b/i.test(code)) return [];
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
