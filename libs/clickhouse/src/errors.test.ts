import { ClickHouseError } from '@clickhouse/client';
import { describe, expect, it } from 'vitest';
import { isTransientError, parseClickHouseError } from './errors.js';
import { splitStatements } from './migrations.js';

describe('parseClickHouseError', () => {
  it('parses the 18.16 text form (the client leaves code undefined there)', () => {
    expect(
      parseClickHouseError(
        new Error('Code: 47, e.displayText() = DB::Exception: Unknown identifier: foo, e.what() = DB::Exception'),
      ),
    ).toEqual({ code: 47, message: 'Unknown identifier: foo' });
  });

  it('reads code and type from the client error of a modern server, whose message has no "Code:" prefix', () => {
    const error = new ClickHouseError({
      message: "Unknown expression identifier `foo` in scope SELECT foo FROM events. Maybe you meant: ['fps']. ",
      code: '47',
      type: 'UNKNOWN_IDENTIFIER',
    });
    expect(parseClickHouseError(error)).toEqual({
      code: 47,
      type: 'UNKNOWN_IDENTIFIER',
      message: "Unknown expression identifier `foo` in scope SELECT foo FROM events. Maybe you meant: ['fps']",
    });
  });

  it('parses the modern text form written into a result stream, type and version split off', () => {
    expect(
      parseClickHouseError(
        new Error(
          "Code: 62. DB::Exception: Syntax error: failed at position 8 ('FORM'). (SYNTAX_ERROR) (version 26.7.3.1)",
        ),
      ),
    ).toEqual({ code: 62, type: 'SYNTAX_ERROR', message: "Syntax error: failed at position 8 ('FORM')" });
  });

  it('returns undefined for errors that are not from the server', () => {
    expect(parseClickHouseError(new Error('connect ECONNREFUSED 127.0.0.1:8123'))).toBeUndefined();
    expect(parseClickHouseError(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBeUndefined();
    expect(parseClickHouseError(undefined)).toBeUndefined();
  });
});

describe('isTransientError', () => {
  it('classifies modern client errors by their code, not as unknown (and so transient)', () => {
    const syntax = new ClickHouseError({ message: 'Syntax error', code: '62', type: 'SYNTAX_ERROR' });
    const tooMany = new ClickHouseError({ message: 'Too many parts', code: '252', type: 'TOO_MANY_PARTS' });
    expect(isTransientError(syntax)).toBe(false);
    expect(isTransientError(tooMany)).toBe(true);
  });

  it('treats broken connections and bodiless failures as transient', () => {
    expect(isTransientError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isTransientError(new Error('Bad gateway'))).toBe(true);
    expect(isTransientError(new Error("Code: 60, e.displayText() = DB::Exception: Table x doesn't exist"))).toBe(false);
  });
});

describe('splitStatements', () => {
  it('splits on semicolons that end a line and drops comment lines', () => {
    expect(splitStatements('-- header\nCREATE TABLE a (x UInt8) ENGINE = Memory;\n\nCREATE TABLE b;\n')).toEqual([
      'CREATE TABLE a (x UInt8) ENGINE = Memory',
      'CREATE TABLE b',
    ]);
  });
});
