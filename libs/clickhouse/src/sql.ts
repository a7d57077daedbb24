/**
 * The one place where values become ClickHouse SQL text. ClickHouse 18.16 has no query
 * parameters, so every value bound into a query goes through `literal` (via the `sql` tag).
 * Nothing else in the code base may build SQL by concatenating values.
 */

declare const SQL_FRAGMENT: unique symbol;
/** SQL text that is already safe to embed (produced by `sql`, `identifier` or `raw`). */
export type SqlFragment = { readonly [SQL_FRAGMENT]: true; readonly text: string };

const fragment = (text: string): SqlFragment => ({ text }) as SqlFragment;

export type SqlValue = string | number | bigint | boolean | Date | null | SqlFragment | readonly SqlValue[];

function isFragment(value: unknown): value is SqlFragment {
  return (
    typeof value === 'object' && value !== null && 'text' in value && !Array.isArray(value) && !(value instanceof Date)
  );
}

/** A quoted string literal: backslash and quote escaped, control bytes as escapes. */
export function quoteString(value: string): string {
  let out = "'";
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

export function literal(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (isFragment(value)) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => literal(v)).join(', ')}]`;
  switch (typeof value) {
    case 'string':
      return quoteString(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`cannot bind a non-finite number: ${value}`);
      return String(value);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? '1' : '0';
    default:
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) throw new TypeError('cannot bind an invalid date');
        return `toDateTime(${Math.floor(value.getTime() / 1000)})`;
      }
      throw new TypeError(`cannot bind a value of type ${typeof value}`);
  }
}

/** Tagged template: every interpolation is bound as a literal (or embedded if it is a fragment). */
export function sql(strings: TemplateStringsArray, ...values: SqlValue[]): SqlFragment {
  let text = strings[0] ?? '';
  values.forEach((value, i) => {
    text += literal(value) + (strings[i + 1] ?? '');
  });
  return fragment(text);
}

/** A back-quoted identifier (database, table, column). */
export function identifier(name: string): SqlFragment {
  if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) || name.length > 128) {
    throw new TypeError(`not a plain identifier: ${JSON.stringify(name)}`);
  }
  return fragment(
    name
      .split('.')
      .map((part) => `\`${part}\``)
      .join('.'),
  );
}

/**
 * Trusted SQL text chosen by our own code (e.g. one of a fixed set of expressions picked by a
 * validated enum). Never pass user input here.
 */
export function raw(text: string): SqlFragment {
  return fragment(text);
}

export function join(parts: readonly SqlFragment[], separator = ', '): SqlFragment {
  return fragment(parts.map((p) => p.text).join(separator));
}
