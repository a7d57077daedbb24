import { engineFromVersion } from '@framedeck/clickhouse';
import { describe, expect, it } from 'vitest';
import { BANDED_HEATMAP_CELLS, heatmapJson, rowBands, type HeatmapQuery } from './heatmap.query.js';
import { answeredOnceTwoSent, sentSql } from './sent-sql.testing.js';

// A 1000 × 1000 map, as the bench's: 10-unit cells are 100 rows of 100, 10,000 cells.
const bounds = { worldMinX: 0, worldMinY: 0, worldMaxX: 1000, worldMaxY: 1000, worldMinZ: null, worldMaxZ: null };
const q: HeatmapQuery = {
  projectId: '00000000-0000-4000-8000-000000000001',
  mapId: 'map_0',
  bounds,
  cellSize: 10,
  days: 30,
  eventName: 'kill',
};
const twoCores = engineFromVersion('18.16.1', 2);

/** A cell line as heatmapCellsSql has ClickHouse write it (weight = avg frame time first). */
const cellLine = (y: number, count: number) => ({ weight: 16, event_count: count, x: 5, y, avg_fps: 60 });

describe('large heatmaps counted in bands of rows (ServerEngine.heatmapSlices)', () => {
  it('bands adjoin, cover every row once and share the threads', () => {
    const slices = { count: 2, threadsEach: 1 };
    expect(rowBands(q, slices)).toEqual([
      { from: 0, below: 50, threads: 1 },
      { from: 50, threads: 1 },
    ]);
    // 101 rows: the bands differ by one row at most, the last one open.
    expect(rowBands({ ...q, bounds: { ...bounds, worldMaxY: 1010 } }, slices)).toEqual([
      { from: 0, below: 51, threads: 1 },
      { from: 51, threads: 1 },
    ]);
    // A server whose thread count is unknown keeps its default.
    expect(rowBands(q, { count: 2 })).toEqual([{ from: 0, below: 50 }, { from: 50 }]);
    // One row of 10,000 cells cannot be split by rows.
    expect(rowBands({ ...q, bounds: { ...bounds, worldMaxX: 100_000, worldMaxY: 10 } }, slices)).toEqual([{ from: 0 }]);
    expect(rowBands(q, { count: 1 })).toEqual([{ from: 0 }]);
  });

  it('18.16, 10-unit Events view: both bands are sent at once, each on one thread, on its grid rows', async () => {
    // No answer until both bands are sent: sent one after the other, the first would wait.
    const held = answeredOnceTwoSent('the second band was not sent while the first ran', (n) =>
      n === 1 ? [cellLine(5, 2), cellLine(15, 4)] : [cellLine(505, 8)],
    );
    let answer = '';
    const sent = await sentSql(async (reader) => (answer = (await heatmapJson(reader, q)).toString()), held, twoCores);
    expect(sent).toHaveLength(2);
    // The 10-unit Events overview names its cell columns for the grid (clickhouse/033).
    for (const text of sent) {
      expect(text).toContain('rollup_heatmap_overview_10_events');
      expect(text).toMatch(/, max_threads = 1\s*$/);
    }
    // In both of its tables (the days before the first Monday, the weeks), a range of the sorting key.
    expect(sent[0]!.match(/AND `cell_y_10` < 50\b/g)).toHaveLength(2);
    expect(sent[0]).not.toContain('`cell_y_10` >=');
    expect(sent[1]!.match(/AND `cell_y_10` >= 50\b/g)).toHaveLength(2);
    expect(sent[1]).not.toContain('`cell_y_10` <');
    // The bands' cells in row order, weighted by the largest count of either band.
    const cells = JSON.parse(answer) as { y: number; weight: number }[];
    expect(cells.map((c) => [c.y, c.weight])).toEqual([
      [5, 0.25],
      [15, 0.5],
      [505, 1],
    ]);
  });

  it('bands are on the grid the view reads: 5-unit rows of a filtered view, bounds off the origin', async () => {
    // Split by platform: the 5-unit cell rollup, whose rows are 5-unit cells from the origin.
    const offOrigin = { ...bounds, worldMinY: -200, worldMaxY: 800 };
    const sent = await sentSql(
      (reader) => heatmapJson(reader, { ...q, bounds: offOrigin, platform: 'ps5' }),
      undefined,
      twoCores,
    );
    expect(sent).toHaveLength(2);
    // Heatmap row 50 starts at y = −200 + 50 × 10 = 300: the 5-unit cell 60.
    expect(sent[0]).toContain('FROM `rollup_heatmap_cells`');
    expect(sent[0]).toContain('AND `cell_y` < 60');
    expect(sent[1]).toContain('AND `cell_y` >= 60');
  });

  it('small views, and views read from the events, are one query on every thread', async () => {
    // Under BANDED_HEATMAP_CELLS: the default 25-unit view of this map is 1,600 cells.
    expect(40 * 40).toBeLessThan(BANDED_HEATMAP_CELLS);
    const small = await sentSql((reader) => heatmapJson(reader, { ...q, cellSize: 25 }), undefined, twoCores);
    const offGrid = { ...bounds, worldMinX: 2.5 };
    const fromEvents = await sentSql((reader) => heatmapJson(reader, { ...q, bounds: offGrid }), undefined, twoCores);
    for (const sent of [small, fromEvents]) {
      expect(sent).toHaveLength(1);
      expect(sent[0]).not.toContain('max_threads');
      // No band: the only conditions on the rows' y are the grid's bounds (`cell_y` >= 0 AND (… < 40 OR …)).
      expect(sent[0]).not.toMatch(/has_sample = \d AND `cell_y/);
    }
    expect(fromEvents[0]).toContain('FROM events');
  });
});
