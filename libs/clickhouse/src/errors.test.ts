import { describe, expect, it } from 'vitest';
import { parseClickHouseError } from './errors.js';
import { splitStatements } from './migrations.js';

describe('parseClickHouseError', () => {
  it('parses the 18.16 form', () => {
    expect(
      parseClickHouseError(
        new Error('Code: 47, e.displayText() = DB::Exception: Unknown identifier: foo, e.what() = DB::Exception'),
      ),
    ).toEqual({ code: 47, message: 'Unknown identifier: foo' });
  });

  it('parses the modern form', () => {
    expect(
      parseClickHouseError(
        new Error(
          "Code: 62. DB::Exception: Syntax error: failed at position 8 ('FORM'). (SYNTAX_ERROR) (version 24.3.1.1)",
        ),
      ),
    ).toEqual({ code: 62, message: "Syntax error: failed at position 8 ('FORM'). (SYNTAX_ERROR)" });
  });

  it('returns undefined for errors that are not from the server', () => {
    expect(parseClickHouseError(new Error('connect ECONNREFUSED 127.0.0.1:8123'))).toBeUndefined();
    expect(parseClickHouseError(undefined)).toBeUndefined();
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
