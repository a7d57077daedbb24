import { nestingDepths } from './parser-text.js';

/**
 * ClickHouse's WITH lists mix two kinds of entry: `<expression> AS <name>` (a scalar or a
 * scalar subquery; the only WITH of 18.16; the name is an expression, never a table) and
 * `<name> AS (<query>)` (a common table expression, modern servers). sqlparser knows only the
 * second, so each expression entry is parsed on its own, as the projection of
 * `SELECT\n<entry>`, and the rest of the query with those entries blanked (and WITH itself
 * when only table expressions are left, or none). Every piece keeps the text's length and
 * lines, so the quoted tokens of all pieces together are the lexer's.
 */
export type WithSplit = {
  /** The query with every expression entry (and the WITH or commas they leave dangling) blanked. */
  main: string;
  /** Each expression entry alone, every other character blanked; its nested entries blanked too. */
  expressions: (ExpressionEntry & { text: string })[];
};

type Range = { from: number; to: number };
type ExpressionEntry = Range & {
  /** The table expressions of the same list before this entry: in scope in it. */
  tables: readonly string[];
  /**
   * Where the query holding the WITH list ends (its closing parenthesis, the next
   * UNION/INTERSECT/EXCEPT of the same level, or the end): the entry's name is in scope from
   * the entry's end up to there.
   */
  scopeEnd: number;
};

/** WITH starting a query: at the start, after `(`, or after UNION/INTERSECT/EXCEPT [ALL|DISTINCT]. */
const QUERY_WITH = /(?<=^\s*|\(\s*|\b(?:UNION|INTERSECT|EXCEPT)\s+(?:(?:ALL|DISTINCT)\s+)?)WITH\b(?!\s+RECURSIVE\b)/gi;
const TABLE_EXPRESSION = /^\s*([A-Za-z_][A-Za-z0-9_]*|#+)\s+AS\s*\(/i;

/**
 * `code` is the text with quoted tokens masked (ScannedSql.code); `text` the text itself. Returns
 * undefined when no WITH list holds an expression entry (sqlparser reads the query as it is).
 */
export function splitWithLists(text: string, code: string): WithSplit | undefined {
  if (!/\bWITH\b/i.test(code)) return undefined; // QUERY_WITH cannot match: skip the scans
  const depth = nestingDepths(code);
  const blanks: Range[] = [];
  const entries: ExpressionEntry[] = [];
  for (const found of code.matchAll(QUERY_WITH)) {
    const listStart = found.index + found[0].length;
    const select = topLevelSelect(code, depth, listStart, depth[found.index]!);
    if (select === undefined) continue; // the parser reports the syntax error
    const items = splitAtCommas(code, depth, listStart, select);
    const scopeEnd = queryEnd(code, depth, select, depth[found.index]!);
    const tables: string[] = [];
    let kept = 0;
    for (const [k, item] of items.entries()) {
      const table = TABLE_EXPRESSION.exec(code.slice(item.from, item.to));
      if (table) {
        // A table expression stays; the comma before it only if an entry before it stays too.
        if (k > 0 && kept === 0) blanks.push({ from: items[k - 1]!.to, to: item.from });
        kept += 1;
        tables.push(table[1]!);
      } else {
        entries.push({ ...item, tables: [...tables], scopeEnd });
        blanks.push(item);
        if (k > 0) blanks.push({ from: items[k - 1]!.to, to: item.from }); // the comma before it
      }
    }
    if (kept === 0) blanks.push({ from: found.index, to: listStart });
  }
  if (entries.length === 0) return undefined;
  const chars = Array.from(text);
  const render = (outside?: Range) =>
    chars
      .map((ch, i) => {
        if (ch === '\n') return ch;
        if (outside && (i < outside.from || i >= outside.to)) return ' ';
        const blanked = blanks.some(
          (b) =>
            i >= b.from &&
            i < b.to &&
            (!outside || (b.from >= outside.from && b.to <= outside.to && !same(b, outside))),
        );
        return blanked ? ' ' : ch;
      })
      .join('');
  return {
    main: render(),
    expressions: entries.map((entry) => ({ ...entry, text: render(entry) })),
  };
}

const same = (a: Range, b: Range) => a.from === b.from && a.to === b.to;

/** Index of the SELECT that ends a WITH list starting at `from`, at the list's own depth. */
function topLevelSelect(code: string, depth: readonly number[], from: number, level: number): number | undefined {
  const select = /\bSELECT\b/gi;
  select.lastIndex = from;
  for (let m = select.exec(code); m; m = select.exec(code)) {
    if (depth[m.index] === level) {
      for (let i = from; i < m.index; i++) if (depth[i]! < level) return undefined;
      return m.index;
    }
  }
  return undefined;
}

/** Where the query whose SELECT is at `from` ends: see ExpressionEntry.scopeEnd. */
function queryEnd(code: string, depth: readonly number[], from: number, level: number): number {
  let end = from;
  while (end < code.length && depth[end]! >= level) end += 1;
  const setOperator = /\b(?:UNION|INTERSECT|EXCEPT)\b/gi;
  setOperator.lastIndex = from;
  for (let m = setOperator.exec(code); m && m.index < end; m = setOperator.exec(code)) {
    if (depth[m.index] === level) return m.index;
  }
  return end;
}

/** The entries of a list between `from` and `to`, split at commas of the list's own depth. */
function splitAtCommas(code: string, depth: readonly number[], from: number, to: number): Range[] {
  const items: Range[] = [];
  let start = from;
  for (let i = from; i < to; i++) {
    if (code[i] === ',' && depth[i] === depth[from]) {
      items.push({ from: start, to: i });
      start = i + 1;
    }
  }
  items.push({ from: start, to });
  return items;
}
