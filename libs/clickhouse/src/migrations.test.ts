import { describe, expect, it } from 'vitest';
import { parseStatements, resolveViewOutputs } from './migrations.js';

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
      {
        text: 'RENAME TABLE events TO events_old,\n  events_next TO events',
        guard: { kind: 'table-exists', table: 'events_next' },
      },
      { text: 'DROP TABLE IF EXISTS events_old' },
    ]);
  });

  it('attaches a column guard naming the table and the column', () => {
    const text = [
      '-- framedeck:when-column-exists rollup_project_days insert_mark',
      'ALTER TABLE rollup_project_days DROP COLUMN insert_mark;',
      '-- framedeck:when-column-missing rollup_daily_counts insert_mark',
      'ALTER TABLE rollup_daily_counts ADD COLUMN insert_mark UInt32;',
    ].join('\n');
    expect(parseStatements(text)).toEqual([
      {
        text: 'ALTER TABLE rollup_project_days DROP COLUMN insert_mark',
        guard: { kind: 'column-exists', table: 'rollup_project_days', column: 'insert_mark' },
      },
      {
        text: 'ALTER TABLE rollup_daily_counts ADD COLUMN insert_mark UInt32',
        guard: { kind: 'column-missing', table: 'rollup_daily_counts', column: 'insert_mark' },
      },
    ]);
  });

  it('refuses a guard with a missing or extra name', () => {
    expect(() => parseStatements('-- framedeck:when-column-missing rollup_daily_counts\nSELECT 1;')).toThrow(
      /malformed migration guard/,
    );
    expect(() => parseStatements('-- framedeck:when-table-exists a b\nSELECT 1;')).toThrow(/malformed migration guard/);
    expect(() => parseStatements('-- framedeck:when-column-exists a\nSELECT 1;')).toThrow(/malformed migration guard/);
  });
});

describe('resolveViewOutputs', () => {
  const statement =
    'CREATE MATERIALIZED VIEW IF NOT EXISTS o_mv TO o AS SELECT k FROM view_output(cells_mv, cells) GROUP BY k';

  it('names the view on 18.16 and its target table on the modern engine (each feeds only views on its own form)', () => {
    expect(resolveViewOutputs(statement, 'legacy')).toBe(
      'CREATE MATERIALIZED VIEW IF NOT EXISTS o_mv TO o AS SELECT k FROM cells_mv GROUP BY k',
    );
    expect(resolveViewOutputs(statement, 'modern')).toBe(
      'CREATE MATERIALIZED VIEW IF NOT EXISTS o_mv TO o AS SELECT k FROM cells GROUP BY k',
    );
  });

  it('qualifies the name on a cluster: the view keeps its name there, a table is the local one', () => {
    const cluster = { cluster: 'c', database: 'fd', alterCluster: 'c_alter' };
    expect(resolveViewOutputs(statement, 'legacy', cluster)).toContain('FROM fd.cells_mv GROUP BY');
    expect(resolveViewOutputs(statement, 'modern', cluster)).toContain('FROM fd.cells_local GROUP BY');
  });

  it('leaves a statement without view_output as it is', () => {
    const plain = 'SELECT view_outputs FROM t';
    expect(resolveViewOutputs(plain, 'legacy')).toBe(plain);
  });
});
