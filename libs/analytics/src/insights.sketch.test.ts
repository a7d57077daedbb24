import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLICKHOUSE_MIGRATIONS_DIR } from '@framedeck/clickhouse';
import { UNIQUE_PLAYERS_PRECISION } from './insights.query.js';

describe('unique-player sketches', () => {
  it('the sketch rollup is built with the precision the insights query merges and computes with', () => {
    // A state of another precision would not merge (ClickHouse refuses it), and a one-pass
    // count of another precision would not equal the merged states.
    const migration = readFileSync(`${CLICKHOUSE_MIGRATIONS_DIR}/022_rollup_event_player_sketches.sql`, 'utf8');
    const precisions = [...migration.matchAll(/uniqCombinedIf(?:State)?\((\d+)\)/g)].map((m) => Number(m[1]));
    expect(precisions.length).toBe(3); // the column type, the view, the backfill
    expect(new Set(precisions)).toEqual(new Set([UNIQUE_PLAYERS_PRECISION]));
  });
});
