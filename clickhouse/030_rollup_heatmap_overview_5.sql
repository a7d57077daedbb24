-- Performance mode's overview again at 5 units (rollup_heatmap_overview_25's Performance rows and
-- their weekly rows, 007/014/015/026, on the 5-unit grid): unfiltered Performance heatmaps of 5 and
-- 10 units read these instead of the full 5-unit cells (libs/analytics heatmap.query.ts,
-- OVERVIEW_GRIDS).
--
-- Why: the full 5-unit cells are split by event name, build, platform and source as well as by
-- day, so on a big map they hold about a row per event until volume fills every combination
-- (the bench's 10 M events: 9.9 M rows), and a 5-unit heatmap's cost grew with the events (100 M
-- bench events, Performance mode over 7 days: 2.1 s). Here a map-day (and a map-week) holds at
-- most one row per cell whatever the volume.
--
-- Performance mode only: each view writes about a row per event of each inserted block, as the
-- full 5-unit cells' does. Measured on 1 M generated events inserted into rollup_input of two
-- scratch databases, alternating, 6 rounds: the two views here add ~24 % to the rollup insert
-- (docs/rollups.md); four views, an Events-mode pair too, roughly doubled it. Events-mode heatmaps
-- of 5 and 10 units keep reading the full cells.
--
-- Exactly once as the other rollups: the views read the same rollup_input blocks (only batches
-- the ledger has not rolled up, 007) and carry the insert mark (015). No player id: erasure
-- needs nothing here; expiry is by month partition, like every rollup_ table.
--
-- Dropped first so that a run that stopped half-way starts again from empty (the fill adds).
DROP TABLE IF EXISTS rollup_heatmap_overview_5_performance_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_5_weekly_performance_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_5;
DROP TABLE IF EXISTS rollup_heatmap_overview_5_weekly;

-- The 25-unit overview's columns (007, 014, 015; its reader reads both grids alike), sorted by
-- map, day and cell first: each inserted block is sorted by the key before it is written, and a
-- row per event sorted by 12 columns whose first eight are the same for most rows (mode, build,
-- platform, source) cost more than the aggregation (measured on 920,000 view rows: 3.2 s written
-- under the 25-unit overview's key, 2.3 s under this one, 0.4 s to aggregate them). A heatmap
-- still reads one range per map and day range; mode, build, platform and source are constants here.
CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_5 AS rollup_heatmap_overview_25
ENGINE = SummingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, map_id, day, cell_y, cell_x, y_on_grid, x_on_grid, has_sample, event_name, build_id, platform, source);

CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_5_weekly AS rollup_heatmap_overview_5;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_5_performance_mv TO rollup_heatmap_overview_5 AS
SELECT project_id, map_id, toUInt8(1) AS has_sample, '' AS event_name, toDate(timestamp) AS day, '' AS build_id,
       '' AS platform, CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       toInt64(floor(greatest(least(toFloat64(position_y), 1e15), -1e15) / 5)) AS cell_y,
       toInt64(floor(greatest(least(toFloat64(position_x), 1e15), -1e15) / 5)) AS cell_x,
       toUInt8(toFloat64(position_y) = cell_y * 5) AS y_on_grid,
       toUInt8(toFloat64(position_x) = cell_x * 5) AS x_on_grid,
       count() AS events,
       countIf(frame_time_ms > 0) AS frame_samples,
       sumIf(toFloat64(frame_time_ms), frame_time_ms > 0) AS frame_time_sum,
       sumIf(toFloat64(frame_time_ms) * frame_time_ms, frame_time_ms > 0) AS frame_time_squares,
       countIf(fps > 0) AS fps_samples,
       sumIf(toFloat64(fps), fps > 0) AS fps_sum,
       countIf(memory_used_bytes > 0) AS memory_samples,
       sumIf(memory_used_bytes, memory_used_bytes > 0) AS memory_sum,
       countIf(gpu_time_ms > 0) AS gpu_time_samples,
       sumIf(toFloat64(gpu_time_ms), gpu_time_ms > 0) AS gpu_time_sum,
       countIf(game_thread_ms > 0) AS game_thread_samples,
       sumIf(toFloat64(game_thread_ms), game_thread_ms > 0) AS game_thread_sum,
       countIf(render_thread_ms > 0) AS render_thread_samples,
       sumIf(toFloat64(render_thread_ms), render_thread_ms > 0) AS render_thread_sum,
       countIf(frame_time_ms > 33.3) AS hitches_33ms,
       countIf(frame_time_ms > 50) AS hitches_50ms,
       minState(position_z) AS min_z,
       maxState(position_z) AS max_z,
       groupArrayIf(toUInt16(floor(log(greatest(toFloat64(frame_time_ms), 0.0001)) / log(1.04)) + 235), frame_time_ms > 0) AS `frame_time_histogramMap.bucket`,
       arrayMap(b -> toUInt64(1), groupArrayIf(toUInt16(floor(log(greatest(toFloat64(frame_time_ms), 0.0001)) / log(1.04)) + 235), frame_time_ms > 0)) AS `frame_time_histogramMap.samples`,
       sumWithOverflow(toUInt32(cityHash64(toString(event_id)))) AS insert_mark
  FROM rollup_input
 WHERE has_position = 1 AND (fps > 0 OR frame_time_ms > 0)
 GROUP BY project_id, map_id, day, cell_y, cell_x, y_on_grid, x_on_grid;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_5_weekly_performance_mv TO rollup_heatmap_overview_5_weekly AS
SELECT project_id, map_id, toUInt8(1) AS has_sample, '' AS event_name, toMonday(toDate(timestamp)) AS day, '' AS build_id,
       '' AS platform, CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       toInt64(floor(greatest(least(toFloat64(position_y), 1e15), -1e15) / 5)) AS cell_y,
       toInt64(floor(greatest(least(toFloat64(position_x), 1e15), -1e15) / 5)) AS cell_x,
       toUInt8(toFloat64(position_y) = cell_y * 5) AS y_on_grid,
       toUInt8(toFloat64(position_x) = cell_x * 5) AS x_on_grid,
       count() AS events,
       countIf(frame_time_ms > 0) AS frame_samples,
       sumIf(toFloat64(frame_time_ms), frame_time_ms > 0) AS frame_time_sum,
       sumIf(toFloat64(frame_time_ms) * frame_time_ms, frame_time_ms > 0) AS frame_time_squares,
       countIf(fps > 0) AS fps_samples,
       sumIf(toFloat64(fps), fps > 0) AS fps_sum,
       countIf(memory_used_bytes > 0) AS memory_samples,
       sumIf(memory_used_bytes, memory_used_bytes > 0) AS memory_sum,
       countIf(gpu_time_ms > 0) AS gpu_time_samples,
       sumIf(toFloat64(gpu_time_ms), gpu_time_ms > 0) AS gpu_time_sum,
       countIf(game_thread_ms > 0) AS game_thread_samples,
       sumIf(toFloat64(game_thread_ms), game_thread_ms > 0) AS game_thread_sum,
       countIf(render_thread_ms > 0) AS render_thread_samples,
       sumIf(toFloat64(render_thread_ms), render_thread_ms > 0) AS render_thread_sum,
       countIf(frame_time_ms > 33.3) AS hitches_33ms,
       countIf(frame_time_ms > 50) AS hitches_50ms,
       minState(position_z) AS min_z,
       maxState(position_z) AS max_z,
       groupArrayIf(toUInt16(floor(log(greatest(toFloat64(frame_time_ms), 0.0001)) / log(1.04)) + 235), frame_time_ms > 0) AS `frame_time_histogramMap.bucket`,
       arrayMap(b -> toUInt64(1), groupArrayIf(toUInt16(floor(log(greatest(toFloat64(frame_time_ms), 0.0001)) / log(1.04)) + 235), frame_time_ms > 0)) AS `frame_time_histogramMap.samples`,
       sumWithOverflow(toUInt32(cityHash64(toString(event_id)))) AS insert_mark
  FROM rollup_input
 WHERE has_position = 1 AND (fps > 0 OR frame_time_ms > 0)
 GROUP BY project_id, map_id, day, cell_y, cell_x, y_on_grid, x_on_grid;

-- The stored 5-unit cells with a frame sample, as Performance rows (event name '', no build,
-- platform or source), by day, then those rows again as rows of their week. SummingMergeTree adds
-- the rows of a key up on merge (a GROUP BY over months of cells would hold them all in memory).
-- Migrations run before the consumer starts, so no batch is rolled up between the views and this
-- copy.
INSERT INTO rollup_heatmap_overview_5
SELECT project_id, map_id, toUInt8(1), '', day, '', '', 'unspecified', cell_y, cell_x, y_on_grid, x_on_grid,
       events, frame_samples, frame_time_sum, frame_time_squares, fps_samples, fps_sum, memory_samples, memory_sum,
       gpu_time_samples, gpu_time_sum, game_thread_samples, game_thread_sum, render_thread_samples, render_thread_sum,
       hitches_33ms, hitches_50ms, min_z, max_z, `frame_time_histogramMap.bucket`, `frame_time_histogramMap.samples`, insert_mark
  FROM rollup_heatmap_cells
 WHERE has_sample = 1;

INSERT INTO rollup_heatmap_overview_5_weekly
SELECT project_id, map_id, has_sample, event_name, toMonday(day), build_id, platform, source, cell_y, cell_x, y_on_grid, x_on_grid,
       events, frame_samples, frame_time_sum, frame_time_squares, fps_samples, fps_sum, memory_samples, memory_sum,
       gpu_time_samples, gpu_time_sum, game_thread_samples, game_thread_sum, render_thread_samples, render_thread_sum,
       hitches_33ms, hitches_50ms, min_z, max_z, `frame_time_histogramMap.bucket`, `frame_time_histogramMap.samples`, insert_mark
  FROM rollup_heatmap_overview_5;
