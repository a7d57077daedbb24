import { describe, expect, it } from 'vitest';
import { identifier, join, literal, raw, renderSql, sql } from './sql.js';

describe('sql binding', () => {
  it('quotes strings so that quotes, backslashes and control bytes cannot end the literal', () => {
    expect(literal("it's")).toBe("'it\\'s'");
    expect(literal('a\\')).toBe("'a\\\\'");
    expect(literal("\\' OR 1=1 --")).toBe("'\\\\\\' OR 1=1 --'");
    expect(literal('line\nbreak\0')).toBe("'line\\x0abreak\\x00'");
  });

  it('binds numbers, booleans, null, dates and arrays', () => {
    expect(literal(42)).toBe('42');
    expect(literal(-1.5)).toBe('-1.5');
    expect(literal(10n)).toBe('10');
    expect(literal(true)).toBe('1');
    expect(literal(null)).toBe('NULL');
    expect(literal(new Date(1_700_000_000_500))).toBe('toDateTime(1700000000)');
    expect(literal(['a', 1])).toBe("['a', 1]");
  });

  it('refuses values that would produce invalid or surprising SQL', () => {
    expect(() => literal(Number.NaN)).toThrow();
    expect(() => literal(Infinity)).toThrow();
    expect(() => literal(new Date('nope'))).toThrow();
    expect(() => literal({} as never)).toThrow();
  });

  it('interpolates every value as a literal and fragments as they are', () => {
    const q = sql`SELECT * FROM ${identifier('db.events')} WHERE name = ${"x'; DROP"} AND ${raw('1 = 1')}`;
    expect(q.text).toBe("SELECT * FROM `db`.`events` WHERE name = 'x\\'; DROP' AND 1 = 1");
  });

  it('rejects identifiers that are not plain names', () => {
    expect(() => identifier('events; DROP TABLE x')).toThrow();
    expect(() => identifier('a`b')).toThrow();
  });

  it('sends strings as typed query parameters, and numbers and dates as literals', () => {
    const names = ['a', "b'"];
    const q = sql`SELECT 1 FROM events WHERE name = ${"x'; DROP"} AND n > ${5} AND id IN (${join(names.map((n) => sql`${n}`))}) AND has(${names}, p) AND t >= ${new Date(1_700_000_000_000)}`;
    expect(renderSql(q, 'parameters')).toEqual({
      query:
        'SELECT 1 FROM events WHERE name = {p0:String} AND n > 5 AND id IN ({p1:String}, {p2:String}) AND has({p3:Array(String)}, p) AND t >= toDateTime(1700000000)',
      params: { p0: "x'; DROP", p1: 'a', p2: "b'", p3: ['a', "b'"] },
    });
    expect(renderSql(q, 'literals')).toEqual({
      query:
        "SELECT 1 FROM events WHERE name = 'x\\'; DROP' AND n > 5 AND id IN ('a', 'b\\'') AND has(['a', 'b\\''], p) AND t >= toDateTime(1700000000)",
      params: {},
    });
  });

  it('numbers parameters in order across nested fragments', () => {
    const inner = sql`b = ${'2'}`;
    expect(renderSql(sql`a = ${'1'} AND ${inner} AND c = ${'3'}`, 'parameters').query).toBe(
      'a = {p0:String} AND b = {p1:String} AND c = {p2:String}',
    );
  });
});
