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
 *    takes one LIMIT per query);
 *  - `a DIV b` / `a MOD b` (integer division and remainder operators): read as `a / b` and
 *    `a % b`, only where the word follows an operand (a name, number, `)`, `]` or quoted
 *    token that is not a keyword): elsewhere `div`/`mod` are names or functions (`mod(a, b)`);
 *  - `JOIN … USING a, b` (the list without parentheses, plain names only): read as
 *    `JOIN … ON a + b`, so the names stay expressions (ClickHouse reads each as a column of
 *    both sides; a list that goes on with anything but a plain name is left to the parser,
 *    which reads what follows as a further FROM item and checks it as one);
 *  - `GROUP BY expr AS name`: the `AS` of an alias at the GROUP BY list's own depth reads `+`,
 *    and the names are returned (ParserText.groupByAliases) for the alias checks every other
 *    alias gets (sqlparser has no aliases there; ClickHouse defines one anywhere).
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
const DIV_MOD = /\b(?:DIV|MOD)\b/gi;
/** Words that end no operand: a DIV/MOD after them is a name or a function, not an operator. */
const NOT_OPERAND_END = new Set(
  `select where prewhere having and or not by on as from join when then else case in is like ilike
  between distinct using interval with all any limit offset union intersect except array final
  sample asc desc over partition exists global`.split(/\s+/),
);
const NAME = '(?:[A-Za-z_][A-Za-z0-9_]*|#+)'; // a plain or (masked) quoted name
const BARE_USING = new RegExp(`\\bUSING\\s+(?!\\()(${NAME}(?:\\s*,\\s*${NAME})*)(?![A-Za-z0-9_.#(])`, 'gi');
const GROUP_BY = /\bGROUP\s+BY\b/gi;
/** What can follow a GROUP BY list: it ends there. */
const AFTER_GROUP_BY =
  /\b(?:WITH|HAVING|ORDER|LIMIT|UNION|INTERSECT|EXCEPT|SETTINGS|FORMAT|WINDOW|QUALIFY|INTO|OFFSET)\b/gi;
const ALIAS = new RegExp(`\\bAS\\s+(${NAME})(?![A-Za-z0-9_#])`, 'gi');

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

export type ParserText = {
  /** The text sqlparser reads. */
  text: string;
  /** The aliases of `GROUP BY expr AS name` (unquoted), for the checks every alias gets. */
  groupByAliases: string[];
};

/** `code` is `text` with its quoted tokens masked (ScannedSql.code). */
export function parserText(text: string, code: string): ParserText {
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
  if (/\b(?:DIV|MOD)\b/i.test(code)) {
    for (const match of code.matchAll(DIV_MOD)) {
      if (!followsOperand(code, match.index)) continue;
      blank(match.index, match[0].length);
      edit()[match.index] = /^div$/i.test(match[0]) ? '/' : '%';
    }
  }
  if (/\bUSING\b/i.test(code)) {
    for (const match of code.matchAll(BARE_USING)) {
      blank(match.index, 'USING'.length);
      [edit()[match.index], edit()[match.index + 1]] = ['O', 'N'];
      const list = match.index + match[0].length - match[1]!.length;
      for (let i = list; i < match.index + match[0].length; i++) if (code[i] === ',') edit()[i] = '+';
    }
  }
  const groupByAliases: string[] = [];
  for (const alias of aliasesInGroupBy(code)) {
    edit()[alias.as] = '+';
    edit()[alias.as + 1] = ' ';
    groupByAliases.push(
      unquote(
        edit()
          .slice(alias.name, alias.name + alias.length)
          .join(''),
      ),
    );
  }
  return { text: chars ? chars.join('') : text, groupByAliases };
}

/** Whether the word at `index` follows an operand: a name or number that is no keyword, `)`, `]` or a quoted token. */
function followsOperand(code: string, index: number): boolean {
  let end = index;
  while (end > 0 && /\s/.test(code[end - 1]!)) end -= 1;
  const last = code[end - 1];
  if (last === undefined) return false;
  if (last === ')' || last === ']' || last === '#') return true;
  if (!/[A-Za-z0-9_]/.test(last)) return false;
  let start = end;
  while (start > 0 && /[A-Za-z0-9_]/.test(code[start - 1]!)) start -= 1;
  return !NOT_OPERAND_END.has(code.slice(start, end).toLowerCase());
}

/** Where each `AS name` at a GROUP BY list's own depth is: the `AS` and the name. */
function aliasesInGroupBy(code: string): { as: number; name: number; length: number }[] {
  if (!/\bGROUP\s+BY\b/i.test(code) || !/\bAS\b/i.test(code)) return [];
  const depth = nestingDepths(code);
  const found: { as: number; name: number; length: number }[] = [];
  for (const groupBy of code.matchAll(GROUP_BY)) {
    const level = depth[groupBy.index]!;
    const from = groupBy.index + groupBy[0].length;
    let to = from;
    while (to < code.length && depth[to]! >= level) to += 1; // the list ends with its query at the latest
    AFTER_GROUP_BY.lastIndex = from;
    for (let next = AFTER_GROUP_BY.exec(code); next && next.index < to; next = AFTER_GROUP_BY.exec(code)) {
      if (depth[next.index] === level) {
        to = next.index;
        break;
      }
    }
    ALIAS.lastIndex = from;
    for (let alias = ALIAS.exec(code); alias && alias.index < to; alias = ALIAS.exec(code)) {
      if (depth[alias.index] !== level) continue;
      const name = alias.index + alias[0].length - alias[1]!.length;
      found.push({ as: alias.index, name, length: alias[1]!.length });
    }
  }
  return found;
}

/** A name as ClickHouse reads it: quotes removed, a doubled quote read as one (the lexer refuses backslashes in names). */
function unquote(name: string): string {
  const quote = name[0];
  if (quote !== '`' && quote !== '"') return name;
  return name.slice(1, -1).replaceAll(quote + quote, quote);
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
