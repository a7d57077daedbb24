import { describe, expect, it } from 'vitest';
import { SqlRejection } from './sandbox-errors.js';
import { MAX_SQL_LENGTH, scanSql } from './sql-lexer.js';

const rejection = (sql: string) => {
  try {
    scanSql(sql);
  } catch (error) {
    if (error instanceof SqlRejection) return error.message;
    throw error;
  }
  return undefined;
};

describe('scanSql', () => {
  it('blanks comments in place, keeping offsets and line breaks', () => {
    const sql = "SELECT 1 -- note\nFROM events /* x\ny */ WHERE a = '--not a comment'";
    const { text } = scanSql(sql);
    expect(text).toHaveLength(sql.length);
    expect(text).toBe("SELECT 1        \nFROM events     \n     WHERE a = '--not a comment'");
  });

  it('drops one trailing semicolon, also when comments follow it', () => {
    expect(scanSql('SELECT 1 FROM events;').text).toBe('SELECT 1 FROM events');
    expect(scanSql('SELECT 1 FROM events ;  -- done\n').text).toBe('SELECT 1 FROM events');
  });

  it('finds string literals and quoted names with ClickHouse escaping rules', () => {
    const { quoted } = scanSql("SELECT 'a\\'b', 'c''d', `x``y`, \"p\"\"q\"");
    expect(quoted.map((t) => [t.kind, t.start.column, t.end.column])).toEqual([
      ['string', 8, 14],
      ['string', 16, 22],
      ['identifier', 24, 30],
      ['identifier', 32, 38],
    ]);
  });

  it('counts columns in code points and lines from 1, as the parser does', () => {
    const { quoted } = scanSql("SELECT\n  'é😀', 'x'");
    expect(quoted).toEqual([
      { kind: 'string', start: { line: 2, column: 3 }, end: { line: 2, column: 7 } },
      { kind: 'string', start: { line: 2, column: 9 }, end: { line: 2, column: 12 } },
    ]);
  });

  it('masks quoted strings and names in `code`, one character per code point, keeping line breaks', () => {
    const sql = "SELECT 'é😀', `a b` /* 😀 */ FROM events WHERE x = 'l1\nl2';";
    const { text, code } = scanSql(sql);
    const comment = ' '.repeat(Array.from(' /* 😀 */ ').length);
    expect(text).toBe(`SELECT 'é😀', \`a b\`${comment}FROM events WHERE x = 'l1\nl2'`);
    expect(code).toBe(`SELECT ####, #####${comment}FROM events WHERE x = ###\n###`);
    expect(Array.from(code)).toHaveLength(Array.from(text).length);
  });

  it('keeps a comment marker inside a string as data', () => {
    expect(scanSql("SELECT '/* -- #' FROM events").text).toBe("SELECT '/* -- #' FROM events");
  });

  it.each([
    ['a NUL byte', 'SELECT 1\u0000; SELECT 2', /control character/],
    ['a vertical tab', 'SELECT\u000b1', /control character/],
    ['a # comment', 'SELECT 1 # , secret', /'#' is not allowed/],
    ['dollar quoting', 'SELECT $$x$$', /'\$' is not allowed/],
    ['a backslash outside strings', 'SELECT 1 \\', /backslash is only allowed/],
    ['a full-width semicolon', 'SELECT 1；SELECT 2', /Non-ASCII/],
    ['a no-break space', 'SELECT\u00a01', /Non-ASCII/],
    ['a look-alike dot', 'SELECT * FROM system\u2024tables', /Non-ASCII/],
    ['nested block comments', 'SELECT 1 /* /* */ , x */', /Nested \/\* comments/],
    ['an unterminated comment', 'SELECT 1 /* x', /Unterminated \/\* comment/],
    ['an unterminated string', "SELECT 'abc", /Unterminated string literal/],
    ['a string ending in an escaped quote', "SELECT 'abc\\'", /Unterminated string literal/],
    ['an unterminated quoted name', 'SELECT `abc', /Unterminated quoted name/],
    ['a backslash in a quoted name', 'SELECT `a\\`b`', /backslash is not allowed in a quoted name/],
    ['a second statement', 'SELECT 1; SELECT 2', /Only one statement/],
    ['two semicolons', 'SELECT 1;;', /Only one statement/],
    ['a statement after a comment after the semicolon', 'SELECT 1; -- x\nDROP TABLE events', /Only one statement/],
    ['an over-long query', `SELECT ${'1+'.repeat(MAX_SQL_LENGTH)}1`, /longer than/],
  ])('refuses %s', (_name, sql, message) => {
    expect(rejection(sql)).toMatch(message);
  });
});
