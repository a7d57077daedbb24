import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLICKHOUSE_MIGRATIONS_DIR, raw, splitStatements, sql } from '@framedeck/clickhouse';
import { ownClickHouseDatabase, type OwnDatabase } from '../support/own-database.js';
import { insertEvents, randomTelemetry } from './event-fixtures.js';

// clickhouse/022 fills the 5-unit heatmap overview from the 5-unit cells before its views take
// over. On a server that already holds data, the filled rows must be the rows its views would
// have written. Here the views write them (events inserted after the migration), the table is
// emptied, and the migration's statements run again: every row, sum, z range and histogram
// must come back. In a database of the test's own: the table is emptied meanwhile.
const MIGRATION = '022_rollup_heatmap_overview_5.sql';
let own: OwnDatabase;

/**
 * Every row of the overview, merged per key (parts not merged yet count the same), in key order.
 * Floating sums are rounded: the fill adds the cells' sums, the views the values, in other orders.
 */
async function overviewRows(): Promise<Record<string, unknown>[]> {
  return own.writer.rows(sql`
    SELECT map_id, has_sample, event_name, day, build_id, platform, source, cell_y, cell_x, y_on_grid, x_on_grid,
           sum(events) AS events, sum(frame_samples) AS frame_samples, round(sum(frame_time_sum), 6) AS frame_time_sum,
           round(sum(frame_time_squares), 6) AS frame_time_squares, sum(fps_samples) AS fps_samples, round(sum(fps_sum), 6) AS fps_sum,
           sum(memory_samples) AS memory_samples, sum(memory_sum) AS memory_sum,
           sum(gpu_time_samples) AS gpu_time_samples, round(sum(gpu_time_sum), 6) AS gpu_time_sum,
           sum(game_thread_samples) AS game_thread_samples, round(sum(game_thread_sum), 6) AS game_thread_sum,
           sum(render_thread_samples) AS render_thread_samples, round(sum(render_thread_sum), 6) AS render_thread_sum,
           sum(hitches_33ms) AS hitches_33ms, sum(hitches_50ms) AS hitches_50ms,
           minMerge(min_z) AS min_z, maxMerge(max_z) AS max_z,
           sumMap(\`frame_time_histogramMap.bucket\`, \`frame_time_histogramMap.samples\`) AS histogram,
           sumWithOverflow(insert_mark) AS insert_mark
      FROM rollup_heatmap_overview_5
     GROUP BY map_id, has_sample, event_name, day, build_id, platform, source, cell_y, cell_x, y_on_grid, x_on_grid
     ORDER BY map_id, has_sample, event_name, day, cell_y, cell_x, y_on_grid, x_on_grid`);
}

beforeAll(async () => {
  own = await ownClickHouseDatabase('overview_fill');
  await insertEvents(own.writer, randomTelemetry(randomUUID(), 2000));
}, 120_000);
afterAll(async () => {
  await own.drop();
});

describe('the 5-unit heatmap overview (clickhouse/022)', () => {
  it('filled from the cells holds exactly what its views write', async () => {
    const written = await overviewRows();
    // Both modes, several maps and names, with frame-time histograms: an empty or one-mode
    // overview would compare equal to a fill that does nothing.
    expect(written.filter((r) => Number(r.has_sample) === 1 && r.event_name === '').length).toBeGreaterThan(200);
    expect(new Set(written.filter((r) => Number(r.has_sample) === 0).map((r) => r.event_name)).size).toBe(4);
    expect(written.some((r) => (r.histogram as unknown[][])[0]!.length > 0)).toBe(true);

    await own.writer.command(sql`TRUNCATE TABLE rollup_heatmap_overview_5`);
    expect(await overviewRows()).toEqual([]);
    const statements = splitStatements(await readFile(`${CLICKHOUSE_MIGRATIONS_DIR}/${MIGRATION}`, 'utf8'));
    for (const statement of statements) await own.writer.command(raw(statement));

    expect(await overviewRows()).toEqual(written);
  });
});
