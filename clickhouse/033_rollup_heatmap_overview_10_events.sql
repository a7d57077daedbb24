-- Events mode's overview at 10 units: one row per map × event name × day × 10-unit cell, and the same
-- per Monday-based week (031's 5-unit Events overview, on the 10-unit grid). Unfiltered Events
-- heatmaps of 10 units (and of 50 on maps whose bounds lie on the 10-unit grid but not on the
-- 25-unit one) read these instead of the 5-unit overview (libs/analytics heatmap.query.ts,
-- OVERVIEW_GRIDS).
--
-- Why: the bench's 30-day Events heatmap at 10 units read the 5-unit overview, whose rows
-- approach 40,000 cells × (weeks + the days before the first Monday) as volume fills the grid.
-- 10 M bench events do not fill it yet, so that heatmap's p95 grew 1.39–1.58× from 10 M to 100 M
-- (docs/performance.md). A 10-unit row gathers four 5-unit cells: a quarter of the rows once the
-- grid is filled, and the grid fills at a quarter of the volume. Events mode only: a 7-day
-- Performance heatmap reads at most 7 rows per 5-unit cell, and its 5- and 10-unit views keep
-- 030's overview.
--
-- The cell columns are named for their grid (cell_y_10, …, the reader renames them): a view
-- computes them from the 5-unit cell columns of the rows rollup_heatmap_cells_mv writes, and in a
-- SELECT an alias named like a column replaces that column in every other expression (both
-- engines), so a 10-unit `cell_y` could not also be read as the 5-unit one its on-grid flag needs;
-- neither can a subquery rename them, as 18.16 hands a view's block to the outermost SELECT.
-- A 10-unit cell is floor(5-unit cell / 2); a point lies on a 10-unit grid line when it lies on
-- the 5-unit one at an even cell.
--
-- Fed as 032's overviews are, from the rows the 5-unit cell view writes (view_output, resolved per
-- engine in libs/clickhouse migrations.ts). Exactly once as the other rollups: the cell view sees
-- only the rollup_input blocks of batches the ledger has not rolled up (007), and a retried block
-- gives the same rows in the same order (015). No player id: erasure needs nothing here; expiry
-- is by month partition, like every rollup_ table.
--
-- Dropped first so that a run that stopped half-way starts again from empty (the fill adds).
DROP TABLE IF EXISTS rollup_heatmap_overview_10_events_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_10_events_weekly_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_10_events;
DROP TABLE IF EXISTS rollup_heatmap_overview_10_events_weekly;

-- 031's columns, the cell's named for the grid, and its sort order.
CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_10_events (
  project_id UUID,
  map_id String,
  has_sample UInt8,
  event_name String,
  day Date,
  build_id String,
  platform String,
  source Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2),
  cell_y_10 Int64,
  cell_x_10 Int64,
  y_on_grid_10 UInt8,
  x_on_grid_10 UInt8,
  events UInt64,
  frame_samples UInt64,
  frame_time_sum Float64,
  frame_time_squares Float64,
  fps_samples UInt64,
  fps_sum Float64,
  memory_samples UInt64,
  memory_sum Int64,
  gpu_time_samples UInt64,
  gpu_time_sum Float64,
  game_thread_samples UInt64,
  game_thread_sum Float64,
  render_thread_samples UInt64,
  render_thread_sum Float64,
  hitches_33ms UInt64,
  hitches_50ms UInt64,
  min_z AggregateFunction(min, Float32),
  max_z AggregateFunction(max, Float32),
  frame_time_histogramMap Nested(bucket UInt16, samples UInt64),
  insert_mark UInt32
) ENGINE = SummingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, map_id, event_name, day, cell_y_10, cell_x_10, y_on_grid_10, x_on_grid_10, has_sample, build_id, platform, source);

CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_10_events_weekly AS rollup_heatmap_overview_10_events;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_10_events_mv TO rollup_heatmap_overview_10_events AS
SELECT project_id, map_id, toUInt8(0) AS has_sample, event_name, day AS day, '' AS build_id, '' AS platform,
       CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       toInt64(floor(cell_y / 2)) AS cell_y_10, toInt64(floor(cell_x / 2)) AS cell_x_10,
       toUInt8(y_on_grid = 1 AND cell_y % 2 = 0) AS y_on_grid_10, toUInt8(x_on_grid = 1 AND cell_x % 2 = 0) AS x_on_grid_10,
       sum(events) AS events, sum(frame_samples) AS frame_samples,
       sum(frame_time_sum) AS frame_time_sum, sum(frame_time_squares) AS frame_time_squares,
       sum(fps_samples) AS fps_samples, sum(fps_sum) AS fps_sum,
       sum(memory_samples) AS memory_samples, sum(memory_sum) AS memory_sum,
       sum(gpu_time_samples) AS gpu_time_samples, sum(gpu_time_sum) AS gpu_time_sum,
       sum(game_thread_samples) AS game_thread_samples, sum(game_thread_sum) AS game_thread_sum,
       sum(render_thread_samples) AS render_thread_samples, sum(render_thread_sum) AS render_thread_sum,
       sum(hitches_33ms) AS hitches_33ms, sum(hitches_50ms) AS hitches_50ms,
       minMergeState(min_z) AS min_z, maxMergeState(max_z) AS max_z,
       groupArrayArray(`frame_time_histogramMap.bucket`) AS `frame_time_histogramMap.bucket`,
       groupArrayArray(`frame_time_histogramMap.samples`) AS `frame_time_histogramMap.samples`,
       sumWithOverflow(insert_mark) AS insert_mark
  FROM view_output(rollup_heatmap_cells_mv, rollup_heatmap_cells)
 GROUP BY project_id, map_id, event_name, day, cell_y_10, cell_x_10, y_on_grid_10, x_on_grid_10;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_10_events_weekly_mv TO rollup_heatmap_overview_10_events_weekly AS
SELECT project_id, map_id, toUInt8(0) AS has_sample, event_name, toMonday(day) AS day, '' AS build_id, '' AS platform,
       CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       toInt64(floor(cell_y / 2)) AS cell_y_10, toInt64(floor(cell_x / 2)) AS cell_x_10,
       toUInt8(y_on_grid = 1 AND cell_y % 2 = 0) AS y_on_grid_10, toUInt8(x_on_grid = 1 AND cell_x % 2 = 0) AS x_on_grid_10,
       sum(events) AS events, sum(frame_samples) AS frame_samples,
       sum(frame_time_sum) AS frame_time_sum, sum(frame_time_squares) AS frame_time_squares,
       sum(fps_samples) AS fps_samples, sum(fps_sum) AS fps_sum,
       sum(memory_samples) AS memory_samples, sum(memory_sum) AS memory_sum,
       sum(gpu_time_samples) AS gpu_time_samples, sum(gpu_time_sum) AS gpu_time_sum,
       sum(game_thread_samples) AS game_thread_samples, sum(game_thread_sum) AS game_thread_sum,
       sum(render_thread_samples) AS render_thread_samples, sum(render_thread_sum) AS render_thread_sum,
       sum(hitches_33ms) AS hitches_33ms, sum(hitches_50ms) AS hitches_50ms,
       minMergeState(min_z) AS min_z, maxMergeState(max_z) AS max_z,
       groupArrayArray(`frame_time_histogramMap.bucket`) AS `frame_time_histogramMap.bucket`,
       groupArrayArray(`frame_time_histogramMap.samples`) AS `frame_time_histogramMap.samples`,
       sumWithOverflow(insert_mark) AS insert_mark
  FROM view_output(rollup_heatmap_cells_mv, rollup_heatmap_cells)
 GROUP BY project_id, map_id, event_name, day, cell_y_10, cell_x_10, y_on_grid_10, x_on_grid_10;

-- Every stored 5-unit Events overview row as a row of its 10-unit cell, daily from the daily rows
-- and weekly from the weekly ones. SummingMergeTree adds the rows of a key up on merge.
-- Migrations run before the consumer starts, so no batch is rolled up between the views and this copy.
INSERT INTO rollup_heatmap_overview_10_events
SELECT project_id, map_id, has_sample, event_name, day, build_id, platform, source,
       toInt64(floor(cell_y / 2)) AS cell_y_10, toInt64(floor(cell_x / 2)) AS cell_x_10,
       toUInt8(y_on_grid = 1 AND cell_y % 2 = 0) AS y_on_grid_10, toUInt8(x_on_grid = 1 AND cell_x % 2 = 0) AS x_on_grid_10,
       events, frame_samples, frame_time_sum, frame_time_squares, fps_samples, fps_sum, memory_samples, memory_sum,
       gpu_time_samples, gpu_time_sum, game_thread_samples, game_thread_sum, render_thread_samples, render_thread_sum,
       hitches_33ms, hitches_50ms, min_z, max_z, `frame_time_histogramMap.bucket`, `frame_time_histogramMap.samples`, insert_mark
  FROM rollup_heatmap_overview_5_events;

INSERT INTO rollup_heatmap_overview_10_events_weekly
SELECT project_id, map_id, has_sample, event_name, day, build_id, platform, source,
       toInt64(floor(cell_y / 2)) AS cell_y_10, toInt64(floor(cell_x / 2)) AS cell_x_10,
       toUInt8(y_on_grid = 1 AND cell_y % 2 = 0) AS y_on_grid_10, toUInt8(x_on_grid = 1 AND cell_x % 2 = 0) AS x_on_grid_10,
       events, frame_samples, frame_time_sum, frame_time_squares, fps_samples, fps_sum, memory_samples, memory_sum,
       gpu_time_samples, gpu_time_sum, game_thread_samples, game_thread_sum, render_thread_samples, render_thread_sum,
       hitches_33ms, hitches_50ms, min_z, max_z, `frame_time_histogramMap.bucket`, `frame_time_histogramMap.samples`, insert_mark
  FROM rollup_heatmap_overview_5_events_weekly;
