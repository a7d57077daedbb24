import { closingBracket } from './parser-text.js';

/**
 * Map access on the Nested key/value columns: `attributes['ci.branch']`, `metrics['mem.vram']`
 * (also qualified: `e.attributes['k']`). Events keep attributes and metrics as parallel arrays
 * (`attributes.key`/`attributes.value`, `metrics.key`/`metrics.value`): ClickHouse 18.16 has no
 * Map type, so a view cannot expose one on both engines. The subscript is rewritten into the
 * array form both engines run,
 *
 *     attributes[K]  →  attributes.value[indexOf(attributes.key, K)]
 *
 * which answers like a Map: the value of the first entry with that key, or the type's default
 * ('' / 0) when the key is absent (indexOf gives 0, and element 0 of a non-constant array is the
 * default). K is any expression, itself rewritten when it holds a map access.
 *
 * NOTE: the rewritten text is what the checker then checks from scratch (lexer included) and
 * what ClickHouse receives, so the rewrite cannot let anything past the check; it only has to
 * find the right brackets, and it reads brackets on the text with strings and quoted names
 * masked.
 */
export const MAP_COLUMNS = ['attributes', 'metrics'] as const;

const MAP_ACCESS = new RegExp(
  `(?<![A-Za-z0-9_.#])((?:[A-Za-z_][A-Za-z0-9_]*\\.)?)(${MAP_COLUMNS.join('|')})\\s*\\[`,
  'g',
);

/**
 * The text with every map access rewritten, or the text itself when it has none. `code` is the
 * text with its quoted tokens masked (ScannedSql.code).
 */
export function rewriteMapAccess(text: string, code: string): string {
  MAP_ACCESS.lastIndex = 0;
  if (!MAP_ACCESS.test(code)) return text;
  const chars = Array.from(text);

  /** chars[from..to) with the map accesses in it rewritten. */
  const rewrite = (from: number, to: number): string => {
    let out = '';
    let at = from;
    MAP_ACCESS.lastIndex = from;
    for (let match = MAP_ACCESS.exec(code); match && match.index < to; match = MAP_ACCESS.exec(code)) {
      const open = match.index + match[0].length - 1;
      const close = closingBracket(code, open);
      if (close === undefined || close >= to) break; // unbalanced: the parser reports it
      const column = `${match[1]}${match[2]}`;
      const key = rewrite(open + 1, close);
      out += chars.slice(at, match.index).join('') + `${column}.value[indexOf(${column}.key, ${key})]`;
      at = close + 1;
      MAP_ACCESS.lastIndex = at;
    }
    return out + chars.slice(at, to).join('');
  };
  return rewrite(0, chars.length);
}
