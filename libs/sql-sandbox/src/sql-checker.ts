import { detachArrayJoinLiterals } from './array-join-literal.js';
import { rewriteMapAccess } from './map-access.js';
import { parserText } from './parser-text.js';
import { scanSql, type QuotedToken } from './sql-lexer.js';
import { loadSqlParser, parseClickHouseSql } from './sql-parser.js';
import { ALLOWED_NODES, EVENTS_TABLE, FORBIDDEN_CLAUSES, isAllowedFunction, KNOWN_FIELDS } from './sql-policy.js';
import { reject } from './sandbox-errors.js';
import { splitWithLists } from './with-list.js';

/** A query that passed every check: `text` is exactly what was checked and what must be sent. */
export type CheckedQuery = { readonly text: string };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type Position = { line: number; column: number };

/**
 * The parser check. Accepts exactly one read-only SELECT (WITH and UNION ALL allowed) whose
 * every table reference, at any depth, is the unqualified `events` or a WITH name in scope,
 * with only allow-listed functions and syntax, and no SETTINGS/FORMAT/INTO clause.
 * Throws SqlRejection (with a message for the analyst) otherwise.
 *
 * Call `loadSqlChecker()` once (it loads the parser) before `checkAnalystQuery`.
 */
export async function loadSqlChecker(): Promise<void> {
  await loadSqlParser();
}

export type CheckOptions = {
  /**
   * Whether a WITH lambda may be called by its name (`WITH x -> x * 2 AS f SELECT f(fps)`),
   * within the query whose WITH defines it. Only where the server resolves such a call to the
   * lambda, as ClickHouse's analyzer does (the modern engine: there a lambda even shadows a
   * server function of the same name, tests/sql prove it). ClickHouse 18.16 resolves `f(…)` to
   * its own function of that name, so a lambda named like a refused function would run that
   * function: there the call is refused (18.16 refuses the form itself anyway). Default: refused.
   */
  lambdaCallsByName?: boolean;
};

export function checkAnalystQuery(sql: string, options: CheckOptions = {}): CheckedQuery {
  const analyst = scanSql(sql);
  if (analyst.text.trim() === '') reject('The query is empty.');
  // Map access is rewritten first; from here on the rewritten text is the query.
  const rewritten = rewriteMapAccess(analyst.text, analyst.code);
  const scanned = rewritten === analyst.text ? analyst : scanSql(rewritten);
  const { code } = scanned;
  const { text, groupByAliases } = parserText(scanned.text, code);
  for (const alias of groupByAliases) checkAlias({ value: alias });
  const walker = new TreeWalker(code);
  const split = splitWithLists(text, code);
  if (split) {
    // Each parsed as `SELECT\n<entry>`: one line lower than in the text, columns unchanged.
    walker.lineShift = 1;
    const entries = split.expressions.map((entry) => {
      const parsed = singleQuery(`SELECT\n${entry.text}`);
      checkWithExpression(parsed);
      const lambda = options.lambdaCallsByName ? lambdaName(parsed) : undefined;
      if (lambda) walker.lambdas.push({ name: lambda, from: entry.to, to: entry.scopeEnd });
      return { entry, parsed };
    });
    for (const { entry, parsed } of entries) walker.visit(parsed, new Set([EVENTS_TABLE, ...entry.tables]));
    walker.lineShift = 0;
  }
  const detached = detachArrayJoinLiterals(split ? split.main : text, code);
  walker.lineShift = 1;
  for (const literal of detached.literals) {
    const parsed = singleQuery(`SELECT\n${literal}`);
    checkArrayLiteral(parsed);
    walker.visit(parsed, new Set([EVENTS_TABLE]));
  }
  walker.lineShift = 0;
  const statement = singleQuery(detached.main);
  walker.visit(statement, new Set([EVENTS_TABLE]));
  assertSameQuotedTokens(scanned.quoted, walker.quoted);
  return { text: scanned.text };
}

function singleQuery(text: string): Json {
  const statements = parseClickHouseSql(text) as Json[];
  if (statements.length !== 1) reject('Only one statement is allowed.');
  const statement = statements[0]!;
  const kind = variantOf(statement);
  if (kind !== 'Query') reject(`Only SELECT queries are allowed (found ${describeStatement(kind)}).`);
  return statement;
}

/** An ARRAY JOIN array literal parsed as a SELECT: one array literal, nothing else. */
function checkArrayLiteral(query: Json): void {
  const select = asObject(asObject(asObject(asObject(query)?.Query)?.body)?.Select);
  const projection = asArray(select?.projection);
  const item = asObject(asObject(projection[0])?.UnnamedExpr);
  if (projection.length !== 1 || !item || variantOf(item) !== 'Array')
    reject('ARRAY JOIN takes array columns, function calls or array literals.');
}

/** The name of a WITH entry (parsed as a SELECT) that is a lambda: `x -> x * 2 AS f`. */
function lambdaName(query: Json): string | undefined {
  const select = asObject(asObject(asObject(asObject(query)?.Query)?.body)?.Select);
  const named = asObject(asObject(asArray(select?.projection)[0])?.ExprWithAlias);
  if (variantOf(named?.expr ?? null) !== 'Lambda') return undefined;
  const name = asObject(named!.alias)?.value;
  return typeof name === 'string' ? name : undefined;
}

/** A WITH expression entry parsed as a SELECT: one named expression, nothing else. */
function checkWithExpression(query: Json): void {
  const body = asObject(asObject(asObject(query)?.Query)?.body);
  const select = asObject(body?.Select);
  if (!select) reject('WITH takes named expressions (WITH <expression> AS <name>, …) or queries (WITH name AS (…)).');
  const groupBy = asArray(asObject(select.group_by)?.Expressions);
  const extra = ['from', 'selection', 'prewhere', 'having', 'qualify', 'distinct', 'sort_by', 'lateral_views'].some(
    (field) => !isEmpty(select[field]),
  );
  if (extra || groupBy.some((g) => !isEmpty(g))) reject('WITH takes only named expressions before the SELECT.');
  const projection = asArray(select.projection);
  if (projection.length !== 1 || variantOf(projection[0]!) !== 'ExprWithAlias') {
    reject('Each WITH expression needs a name: WITH <expression> AS <name>.');
  }
}

/**
 * Visits every node of the syntax tree. Generic on purpose: it descends into every field of
 * every node, so nothing can hide in a field the checks below do not name, and it refuses
 * every node type and non-empty field that is not on the allow-lists.
 */
class TreeWalker {
  /** Quoted strings and names as the parser saw them, compared with the lexer's afterwards. */
  readonly quoted: QuotedToken[] = [];
  /** Lines the parsed text is below the analyst's text (the WITH list is parsed after a `SELECT` line). */
  lineShift = 0;
  /** WITH lambdas callable by name, each where it is in scope (code-point offsets [from, to)). */
  readonly lambdas: { name: string; from: number; to: number }[] = [];
  private lineStarts: number[] | undefined;

  /** `code`: the checked text with quoted tokens masked, to place a call by its line and column. */
  constructor(private readonly code: string) {}

  visit(node: Json, scope: ReadonlySet<string>): void {
    if (Array.isArray(node)) {
      for (const item of node) this.visit(item, scope);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    this.recordQuoted(node);
    if ('alias' in node) checkAlias(node.alias);
    // A query (top level, subquery, WITH entry, UNION branch) has a body: WITH names scope it.
    if ('body' in node) return this.visitQuery(node, scope);
    for (const key in node) {
      if (key === 'span') continue;
      const value = node[key]!;
      if (key === 'relation') this.visitRelation(node, scope);
      else if (isVariantName(key)) this.visitVariant(key, value, scope);
      else this.visitField(key, value, scope);
    }
  }

  private visitVariant(name: string, value: Json, scope: ReadonlySet<string>): void {
    if (!ALLOWED_NODES.has(name)) reject(`${describeNode(name)} is not allowed in sandboxed queries.`);
    const node = asObject(value);
    switch (name) {
      case 'Function':
        this.checkFunction(node!);
        break;
      case 'SetOperation':
        // NOTE: each branch is a query, checked like any other; how rows combine reads nothing more.
        if (node!.op !== 'Union' && node!.op !== 'Intersect' && node!.op !== 'Except') {
          reject('Only UNION, INTERSECT and EXCEPT may combine queries.');
        }
        break;
      case 'InList':
        // NOTE: ClickHouse reads `x IN (db.table)` / `x IN (name)` as "the rows of that table".
        for (const item of asArray(node!.list)) {
          if (isNameExpression(item)) reject('IN (…) takes values or a subquery, not a table or column name.');
          // NOTE: ClickHouse 18.16 reads true/false as names, and substitutes an alias of that
          // name: `0 IN (true)` with `… AS \`true\`` would name a table.
          if (isBooleanLiteral(item))
            reject('IN (…) does not take true/false (18.16 reads them as names); use 1 or 0.');
        }
        break;
    }
    this.visit(value, scope);
  }

  private visitField(key: string, value: Json, scope: ReadonlySet<string>): void {
    if (isEmpty(value) || key.endsWith('_token')) return;
    const clause = FORBIDDEN_CLAUSES[key];
    if (clause) reject(`${clause} clauses are not allowed in sandboxed queries.`);
    if (!KNOWN_FIELDS.has(key)) reject(`Unsupported syntax (${key}) in the query.`);
    if (key === 'data_type') return this.visitDataType(value);
    if (key === 'from' && Array.isArray(value)) return this.visitFrom(value, scope);
    this.visit(value, scope);
  }

  /**
   * FROM items. ClickHouse reads `ARRAY JOIN a AS x, b AS y` as one ARRAY JOIN of two arrays;
   * sqlparser reads the part after the comma as a further FROM item. An item that follows an
   * ARRAY JOIN is therefore checked as what ClickHouse sees: another ARRAY JOIN target.
   */
  private visitFrom(items: Json[], scope: ReadonlySet<string>): void {
    let afterArrayJoin = false;
    for (const item of items) {
      const from = asObject(item);
      if (from && afterArrayJoin) {
        const relation = asObject(from.relation);
        this.checkArrayJoin(relation, relation && variantOf(relation));
        if (!isEmpty(from.joins)) reject('A JOIN cannot follow the arrays of an ARRAY JOIN list.');
        this.recordQuoted(from);
        this.visit(Object.values(relation!)[0]!, scope);
        continue;
      }
      this.visit(item, scope);
      const joins = asArray(from?.joins);
      const last = asObject(joins[joins.length - 1]);
      afterArrayJoin = typeof last?.join_operator === 'string' && /ArrayJoin$/.test(last.join_operator);
    }
  }

  /** WITH names are visible in the main query and in later WITH entries, not in their own. */
  private visitQuery(query: JsonObject, outer: ReadonlySet<string>): void {
    let scope = outer;
    const withClause = asObject(query.with);
    if (withClause) {
      if (withClause.recursive === true) reject('WITH RECURSIVE is not allowed.');
      for (const cte of asArray(withClause.cte_tables)) {
        const entry = asObject(cte)!;
        this.visit(entry, scope);
        const name = asObject(asObject(entry.alias)?.name)?.value;
        // A plain name only: `WITH \`system.one\` AS (…)` must not look like a qualified table.
        if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
          reject('A WITH name must be a plain identifier (letters, digits, underscores).');
        }
        scope = new Set([...scope, name]);
      }
    }
    for (const [key, value] of Object.entries(query)) {
      if (key !== 'with') this.visitField(key, value, scope);
    }
  }

  /**
   * A FROM item or a JOIN: the only place where table factors (Table, Derived, NestedJoin)
   * are accepted. After the check, the factor's own fields are walked like any other node.
   */
  private visitRelation(holder: JsonObject, scope: ReadonlySet<string>): void {
    this.checkRelation(holder, scope);
    const relation = asObject(holder.relation)!;
    this.visit(Object.values(relation)[0]!, scope);
  }

  private checkRelation(node: JsonObject, scope: ReadonlySet<string>): void {
    const relation = asObject(node.relation);
    const kind = relation && variantOf(relation);
    const operator = typeof node.join_operator === 'string' ? node.join_operator : '';
    if (/ArrayJoin$/.test(operator)) return this.checkArrayJoin(relation, kind);
    if (kind === 'Derived') {
      if (asObject(relation!.Derived)?.lateral === true) reject('LATERAL subqueries are not allowed.');
      return;
    }
    if (kind === 'NestedJoin') return;
    if (kind !== 'Table')
      reject(
        `Only the table ${EVENTS_TABLE} or a subquery may appear in FROM/JOIN (found ${describeNode(kind ?? 'unknown')}).`,
      );
    const table = asObject(relation!.Table)!;
    const name = tableName(table);
    if (!isEmpty(table.args)) {
      reject(`Table functions such as ${name}(…) are not allowed; query the table ${EVENTS_TABLE}.`);
    }
    for (const field of ['with_hints', 'partitions', 'version', 'json_path', 'index_hints', 'with_ordinality']) {
      if (!isEmpty(table[field])) reject(`Unsupported table modifier (${field}).`);
    }
    if (!scope.has(name)) {
      reject(
        `Table ${name} is not available: sandboxed queries read only the table ${EVENTS_TABLE} ` +
          `(your project's events)${scope.size > 1 ? ' or a name defined with WITH' : ''}.`,
      );
    }
  }

  /**
   * sqlparser reads the targets of `ARRAY JOIN x` as table names, but to ClickHouse they are
   * expressions: a column path (attributes, e.attributes.key) or a function call.
   */
  private checkArrayJoin(relation: JsonObject | undefined, kind: string | undefined): void {
    if (kind !== 'Table') reject('ARRAY JOIN takes array columns or function calls.');
    const table = asObject(relation!.Table)!;
    const parts = asArray(table.name);
    if (!isEmpty(table.args)) {
      if (parts.length !== 1 || !isAllowedFunction(partName(parts[0]!))) {
        reject(`Function ${parts.map(partName).join('.')} is not allowed in sandboxed queries.`);
      }
    } else if (parts.length < 1 || parts.length > 3) {
      reject('ARRAY JOIN takes array columns or function calls.');
    }
  }

  private checkFunction(fn: JsonObject): void {
    const parts = asArray(fn.name);
    const name = parts.map(partName).join('.');
    if (parts.length === 1 && this.isLambdaInScope(name, parts[0]!)) return;
    if (parts.length !== 1 || !isAllowedFunction(name)) {
      reject(`Function ${name} is not allowed in sandboxed queries.`);
    }
  }

  /** Whether `name` (the name of a call) is a WITH lambda in scope where the call is. */
  private isLambdaInScope(name: string, part: Json): boolean {
    if (!this.lambdas.some((lambda) => lambda.name === name)) return false;
    const span = asObject(asObject(asObject(part)?.Identifier)?.span);
    if (!span) return false;
    const { start } = spanOf(span, this.lineShift);
    this.lineStarts ??= lineStartsOf(this.code);
    const offset = this.lineStarts[start.line - 1]! + start.column - 1;
    return this.lambdas.some((lambda) => lambda.name === name && offset >= lambda.from && offset < lambda.to);
  }

  /** Type names (CAST(x AS Nullable(UInt8))) cannot reach data; only quoted parts are recorded. */
  private visitDataType(node: Json): void {
    if (Array.isArray(node)) return node.forEach((n) => this.visitDataType(n));
    if (node === null || typeof node !== 'object') return;
    this.recordQuoted(node);
    for (const value of Object.values(node)) this.visitDataType(value);
  }

  private recordQuoted(node: JsonObject): void {
    const span = asObject(node.span);
    if (!span) return;
    const value = asObject(node.value);
    if (value && 'SingleQuotedString' in value) {
      this.quoted.push({ kind: 'string', ...spanOf(span, this.lineShift) });
    } else if (!isEmpty(node.quote_style)) {
      if (node.quote_style !== '"' && node.quote_style !== '`') reject('Unsupported quoting in the query.');
      this.quoted.push({ kind: 'identifier', ...spanOf(span, this.lineShift) });
    }
  }
}

/**
 * NOTE: the second half of the lexical guard. The lexer found the quoted strings and names
 * the way ClickHouse will; here the parser must have found exactly the same ones, start and
 * end. If the two tokenizers disagreed anywhere, some text would be a string to one and code
 * to the other, and the check would not be about the query ClickHouse runs.
 */
function assertSameQuotedTokens(lexed: QuotedToken[], parsed: QuotedToken[]): void {
  const key = (t: QuotedToken) => `${t.kind}@${t.start.line}:${t.start.column}-${t.end.line}:${t.end.column}`;
  const a = lexed.map(key).sort();
  const b = parsed.map(key).sort();
  if (a.length !== b.length || a.some((k, i) => k !== b[i])) {
    reject('The query quotes strings or names in a way the sandbox cannot verify; use plain single-quoted strings.');
  }
}

// ---- small helpers over the JSON tree ----

/** Enum variants are capitalised (`Function`, `Select`); fields are snake_case. */
function isVariantName(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 65 && first <= 90; // A-Z
}

function variantOf(node: Json): string | undefined {
  if (typeof node === 'string') return node;
  const keys = node && typeof node === 'object' && !Array.isArray(node) ? Object.keys(node) : [];
  return keys.length === 1 && isVariantName(keys[0]!) ? keys[0] : undefined;
}

function asObject(value: Json | undefined): JsonObject | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

function asArray(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}

function isEmpty(value: Json | undefined): boolean {
  if (value === undefined || value === null || value === false || value === 'None') return true; // the parser leaves absent optional fields undefined
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.length === 0;
  for (const _key in value) return false; // one own key is enough (no array of keys built)
  return true;
}

function partName(part: Json): string {
  const ident = asObject(asObject(part)?.Identifier);
  return typeof ident?.value === 'string' ? ident.value : reject('Unsupported name in the query.');
}

function tableName(table: JsonObject): string {
  return asArray(table.name).map(partName).join('.');
}

function isBooleanLiteral(node: Json): boolean {
  const kind = variantOf(node);
  if (kind === 'Nested') return isBooleanLiteral(asObject(node)!.Nested!);
  const value = kind === 'Value' ? asObject(asObject(asObject(node)!.Value)?.value) : undefined;
  return value !== undefined && 'Boolean' in value;
}

/**
 * Names ClickHouse would resolve differently from the checker are refused as aliases: a
 * literal's spelling (`true`, `false`, `null`, `inf`, `nan`: 18.16 reads true/false as names
 * and substitutes an alias into them) and names with a dot (`db.table` as a column alias
 * makes a qualified name resolve to it).
 */
function checkAlias(alias: Json | undefined): void {
  const holder = asObject(alias);
  const name = holder && (typeof holder.value === 'string' ? holder.value : asObject(holder.name)?.value);
  if (typeof name !== 'string') return;
  if (/^(true|false|null|inf|nan)$/i.test(name))
    reject(`The alias ${name} is the spelling of a literal; choose another name.`);
  if (name.includes('.'))
    reject(`The alias ${name} contains a dot and would read as a qualified name; choose another name.`);
}

function isNameExpression(node: Json): boolean {
  const kind = variantOf(node);
  if (kind === 'Nested') return isNameExpression(asObject(node)!.Nested!);
  return kind === 'Identifier' || kind === 'CompoundIdentifier';
}

/** Code-point offset of each line's start (`code` is ASCII: one code unit per code point). */
function lineStartsOf(code: string): number[] {
  const starts = [0];
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function spanOf(span: JsonObject, lineShift = 0): Pick<QuotedToken, 'start' | 'end'> {
  const pos = (p: Json | undefined): Position => {
    const o = asObject(p);
    return { line: Number(o?.line) - lineShift, column: Number(o?.column) };
  };
  return { start: pos(span.start), end: pos(span.end) };
}

function describeNode(name: string): string {
  return `The construct ${name}`;
}

function describeStatement(kind: string | undefined): string {
  return kind ? `a ${kind.replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase()} statement` : 'another statement';
}
