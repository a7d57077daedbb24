import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLICKHOUSE_MIGRATIONS_DIR } from './migrations.js';
import { SKETCH_PRECISION } from './distinct-counts.js';

describe('player and session sketches', () => {
  // A state of another precision would not merge (ClickHouse refuses it), and a one-pass count
  // of another precision would not equal the merged states.
  it.each([
    // the column type, the view, the backfill
    ['022_rollup_event_player_sketches.sql', 3],
    // players and sessions: the column types, the view, the backfills
    ['023_rollup_day_sketches.sql', 6],
    // the project status's: the column types, the view, the refill
    ['025_rollup_hour_sketches_precision.sql', 6],
  ])('%s builds its sketches with the precision the queries merge and compute with', (file, sketches) => {
    const migration = readFileSync(`${CLICKHOUSE_MIGRATIONS_DIR}/${file}`, 'utf8');
    const precisions = [...migration.matchAll(/uniqCombined(?:If)?(?:State)?\((\d+)\)/g)].map((m) => Number(m[1]));
    expect(precisions.length).toBe(sketches);
    expect(new Set(precisions)).toEqual(new Set([SKETCH_PRECISION]));
  });
});
