import { describe, expect, it } from 'vitest';
import { identifier, literal, raw, sql } from './sql.js';

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
});
