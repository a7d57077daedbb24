import { describe, expect, it } from 'vitest';
import { parseStatements } from './migrations.js';

describe('parseStatements', () => {
  it('attaches a table guard to the statement that follows it only', () => {
    const text = [
      '-- header',
      '-- framedeck:when-table-exists events_next',
      'RENAME TABLE events TO events_old,',
      '  events_next TO events;',
      'DROP TABLE IF EXISTS events_old;',
    ].join('\n');
    expect(parseStatements(text)).toEqual([
      { text: 'RENAME TABLE events TO events_old,\n  events_next TO events', whenTableExists: 'events_next' },
      { text: 'DROP TABLE IF EXISTS events_old' },
    ]);
  });
});
