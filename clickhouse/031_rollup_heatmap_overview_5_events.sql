-- Events mode's overview at 5 units: one row per map × event name × day × 5-unit cell, and the same
-- per Monday-based week, without build, platform or source (rollup_heatmap_overview_25's Events rows
-- and their weekly rows, 007/014/015/026, on the 5-unit grid). Unfiltered Events heatmaps of 5 and 10
-- units read these instead of the full 5-unit cells (libs/analytics heatmap.query.ts, OVERVIEW_GRIDS),
-- as Performance mode's read 030's.
--
-- Why: the full 5-unit cells split a name's events by build, platform and source too, so a name's
-- rows on a big map grow with its events until every combination is filled (the bench's 30-day
-- Events heatmap at 10 units read ~4.5 M rows at 100 M events: 372–478 ms p95, growth 2.1–2.5).
-- Here a name's map-day (and map-week) holds at most one row per cell whatever the volume.
--
-- Sorted by map, event name, day and cell: a heatmap reads one name's range of its map, and, as
-- for 030, the block a view writes is sorted by key columns that differ between its rows, not by
-- near-constant ones first (build, platform and source are constants here, at the key's end so
-- that SummingMergeTree keeps them rather than sums them). Its cost at insert: docs/rollups.md.
--
-- Exactly once as the other rollups: the views read the same rollup_input blocks (only batches
-- the ledger has not rolled up, 007) and carry the insert mark (015). No player id: erasure needs
-- nothing here; expiry is by month partition, like every rollup_ table.
--
-- Dropped first so that a run that stopped half-way starts again from empty (the fill adds).
DROP TABLE IF EXISTS rollup_heatmap_overview_5_events_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_5_events_weekly_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_5_events;
DROP TABLE IF EXISTS rollup_heatmap_overview_5_events_weekly;

CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_5_events AS rollup_heatmap_overview_25
ENGINE = SummingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, map_id, event_name, day, cell_y, cell_x, y_on_grid, x_on_grid, has_sample, build_id, platform, source);

CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_5_events_weekly AS rollup_heatmap_overview_5_events;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_5_events_mv TO rollup_heatmap_overview_5_events AS
SELECT project_id, map_id, toUInt8(0) AS has_sample, event_name AS event_name, toDate(timestamp) AS day, '' AS build_id,
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
 WHERE has_position = 1
 GROUP BY project_id, map_id, event_name, day, cell_y, cell_x, y_on_grid, x_on_grid;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_5_events_weekly_mv TO rollup_heatmap_overview_5_events_weekly AS
SELECT project_id, map_id, toUInt8(0) AS has_sample, event_name AS event_name, toMonday(toDate(timestamp)) AS day, '' AS build_id,
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
 WHERE has_position = 1
 GROUP BY project_id, map_id, event_name, day, cell_y, cell_x, y_on_grid, x_on_grid;

-- Every stored 5-unit cell (with or without a frame sample: Events mode counts both) as an Events
-- row of its name (no build, platform or source), by day, then those rows again as rows of their
-- week. SummingMergeTree adds the rows of a key up on merge (a GROUP BY over months of cells would
-- hold them all in memory). Migrations run before the consumer starts, so no batch is rolled up
-- between the views and this copy.
INSERT INTO rollup_heatmap_overview_5_events
SELECT project_id, map_id, toUInt8(0), event_name, day, '', '', 'unspecified', cell_y, cell_x, y_on_grid, x_on_grid,
       events, frame_samples, frame_time_sum, frame_time_squares, fps_samples, fps_sum, memory_samples, memory_sum,
       gpu_time_samples, gpu_time_sum, game_thread_samples, game_thread_sum, render_thread_samples, render_thread_sum,
       hitches_33ms, hitches_50ms, min_z, max_z, `frame_time_histogramMap.bucket`, `frame_time_histogramMap.samples`, insert_mark
  FROM rollup_heatmap_cells;

INSERT INTO rollup_heatmap_overview_5_events_weekly
SELECT project_id, map_id, has_sample, event_name, toMonday(day), build_id, platform, source, cell_y, cell_x, y_on_grid, x_on_grid,
       events, frame_samples, frame_time_sum, frame_time_squares, fps_samples, fps_sum, memory_samples, memory_sum,
       gpu_time_samples, gpu_time_sum, game_thread_samples, game_thread_sum, render_thread_samples, render_thread_sum,
       hitches_33ms, hitches_50ms, min_z, max_z, `frame_time_histogramMap.bucket`, `frame_time_histogramMap.samples`, insert_mark
  FROM rollup_heatmap_overview_5_events;
