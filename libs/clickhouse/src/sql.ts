/**
 * The one place where values become ClickHouse SQL. Every value interpolated with the `sql`
 * tag stays a separate, typed piece of the fragment until the query is sent:
 *  - to a server with query parameters (ClickHouse ≥ 20), strings travel as `{pN:String}` /
 *    `{pN:Array(String)}` parameters, outside the SQL text (`renderSql(…, 'parameters')`);
 *  - to ClickHouse 18.16, which has none, and in DDL (a view's or mutation's text is stored
 *    as written), they are quoted literals (`renderSql(…, 'literals')`, or `.text`).
 * Numbers, booleans and dates are always literals: they are validated here and cannot carry
 * SQL. Nothing else in the code base may build SQL by concatenating values.
 */

declare const SQL_FRAGMENT: unique symbol;

/** A string value kept out of the SQL text until rendering (a parameter, or a quoted literal). */
type BoundString = { readonly bound: string | readonly string[] };
type Chunk = string | BoundString;

/** SQL produced by `sql`, `identifier`, `raw` or `join`: safe to embed, rendered when sent. */
export type SqlFragment = {
  readonly [SQL_FRAGMENT]: true;
  readonly chunks: readonly Chunk[];
  /** The fragment with every value as a literal (DDL, ClickHouse 18.16, logs and tests). */
  readonly text: string;
};

export type SqlValue = string | number | bigint | boolean | Date | null | SqlFragment | readonly SqlValue[];

/** How values reach the server: inside the text, or as query parameters beside it. */
export type ValueBinding = 'literals' | 'parameters';

export type RenderedSql = { query: string; params: Record<string, string | readonly string[]> };

function fragment(chunks: readonly Chunk[]): SqlFragment {
  const frozen = Object.freeze([...chunks]);
  return {
    chunks: frozen,
    get text() {
      return renderSql(this, 'literals').query;
    },
  } as SqlFragment;
}

function isFragment(value: unknown): value is SqlFragment {
  return typeof value === 'object' && value !== null && 'chunks' in value && !Array.isArray(value);
}

function isStringArray(value: readonly SqlValue[]): value is readonly string[] {
  return value.every((v) => typeof v === 'string');
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

/** A value as literal SQL text. */
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

/** The chunks one interpolated value becomes. */
function chunksOf(value: SqlValue): readonly Chunk[] {
  if (isFragment(value)) return value.chunks;
  if (typeof value === 'string') return [{ bound: value }];
  if (Array.isArray(value) && value.length > 0 && isStringArray(value)) return [{ bound: value }];
  return [literal(value)];
}

/** Tagged template: every interpolation is bound as a value (or embedded if it is a fragment). */
export function sql(strings: TemplateStringsArray, ...values: SqlValue[]): SqlFragment {
  const chunks: Chunk[] = [strings[0] ?? ''];
  values.forEach((value, i) => {
    chunks.push(...chunksOf(value), strings[i + 1] ?? '');
  });
  return fragment(chunks);
}

/**
 * The query text and its parameters. With 'parameters', each string value becomes `{pN:…}`
 * and its value goes in `params` (the client sends them as `param_pN`); with 'literals',
 * `params` is empty.
 */
export function renderSql(query: SqlFragment, binding: ValueBinding): RenderedSql {
  const params: RenderedSql['params'] = {};
  let text = '';
  for (const chunk of query.chunks) {
    if (typeof chunk === 'string') {
      text += chunk;
    } else if (binding === 'literals') {
      text += literal(chunk.bound as SqlValue);
    } else {
      const name = `p${Object.keys(params).length}`;
      params[name] = chunk.bound;
      text += typeof chunk.bound === 'string' ? `{${name}:String}` : `{${name}:Array(String)}`;
    }
  }
  return { query: text, params };
}

/** A back-quoted identifier (database, table, column). */
export function identifier(name: string): SqlFragment {
  if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) || name.length > 128) {
    throw new TypeError(`not a plain identifier: ${JSON.stringify(name)}`);
  }
  return fragment([
    name
      .split('.')
      .map((part) => `\`${part}\``)
      .join('.'),
  ]);
}

/**
 * Trusted SQL text chosen by our own code (e.g. one of a fixed set of expressions picked by a
 * validated enum). Never pass user input here.
 */
export function raw(text: string): SqlFragment {
  return fragment([text]);
}

export function join(parts: readonly SqlFragment[], separator = ', '): SqlFragment {
  return fragment(parts.flatMap((p, i) => (i === 0 ? p.chunks : [separator, ...p.chunks])));
}
