import { closingBracket } from './parser-text.js';

/**
 * `ARRAY JOIN [1, 2] AS x`: ClickHouse joins any array expression, sqlparser only names and
 * function calls. Each array literal right after ARRAY JOIN is detached: in the main text it
 * becomes a name of the same length (`______`, which the ARRAY JOIN check accepts like any
 * column), and the literal itself is parsed on its own as `SELECT\n<literal>` and checked like
 * any expression, so nothing in it escapes the checks.
 */
export type DetachedLiterals = { main: string; literals: string[] };

const ARRAY_JOIN_LITERAL = /\bARRAY\s+JOIN\s+\[/gi;

/** `code` is `text` with quoted tokens masked (ScannedSql.code). */
export function detachArrayJoinLiterals(text: string, code: string): DetachedLiterals {
  const found = [...code.matchAll(ARRAY_JOIN_LITERAL)];
  if (found.length === 0) return { main: text, literals: [] }; // nothing to detach: no copy
  const chars = Array.from(text);
  const literals: string[] = [];
  for (const match of found) {
    const open = match.index + match[0].length - 1;
    const close = closingBracket(code, open);
    // Unbalanced, or over several lines (a name cannot hold a line break): the parser reports it.
    if (close === undefined || code.slice(open, close).includes('\n')) continue;
    literals.push(chars.map((ch, i) => ((i < open || i > close) && ch !== '\n' ? ' ' : ch)).join(''));
    for (let i = open; i <= close; i++) chars[i] = '_';
  }
  return { main: chars.join(''), literals };
}
