-- The 25-unit overview (rollup_heatmap_overview_25, 007/014/015) again, one row per map × Monday-
-- based week × cell and mode instead of per day: unfiltered heatmaps of 25 and 50 units read the
-- whole weeks of their range here and only the days before the first Monday from the daily rows
-- (libs/analytics heatmap.query.ts).
--
-- Why: a cell's frame-time histogram holds one entry per distinct log bucket, and the buckets a
-- day's row holds grow with the events in it (~2 at 10 M bench events, ~21 at 100 M, at most ~35
-- over the range frame times span). A 30-day Events heatmap merged 30 of those per cell, so its
-- cost grew with volume; a week's row holds the buckets of 7 days, which stop growing sooner.
-- Measured on the bench data: see docs/performance.md.
--
-- Exactly once as the daily rows: the views read the same rollup_input blocks (only batches the
-- ledger has not rolled up, 007) and carry the same insert mark (015). No player id: erasure
-- needs nothing here; expiry is by month partition of the week's Monday, like every rollup.
--
-- The views read rollup_input, not the daily overview: 18.16 does not run a table's views for
-- rows another view writes into it (measured: a view on a view's target table saw nothing).
--
-- Dropped first so that a run that stopped half-way starts again from empty (the fill adds).
DROP TABLE IF EXISTS rollup_heatmap_overview_25_weekly_performance_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_25_weekly_events_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_25_weekly;

CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_25_weekly AS rollup_heatmap_overview_25;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_25_weekly_performance_mv TO rollup_heatmap_overview_25_weekly AS
SELECT project_id, map_id, toUInt8(1) AS has_sample, '' AS event_name, toMonday(toDate(timestamp)) AS day, '' AS build_id,
       '' AS platform, CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       toInt64(floor(greatest(least(toFloat64(position_y), 1e15), -1e15) / 25)) AS cell_y,
       toInt64(floor(greatest(least(toFloat64(position_x), 1e15), -1e15) / 25)) AS cell_x,
       toUInt8(toFloat64(position_y) = cell_y * 25) AS y_on_grid,
       toUInt8(toFloat64(position_x) = cell_x * 25) AS x_on_grid,
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

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_25_weekly_events_mv TO rollup_heatmap_overview_25_weekly AS
SELECT project_id, map_id, toUInt8(0) AS has_sample, event_name AS event_name, toMonday(toDate(timestamp)) AS day, '' AS build_id,
       '' AS platform, CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       toInt64(floor(greatest(least(toFloat64(position_y), 1e15), -1e15) / 25)) AS cell_y,
       toInt64(floor(greatest(least(toFloat64(position_x), 1e15), -1e15) / 25)) AS cell_x,
       toUInt8(toFloat64(position_y) = cell_y * 25) AS y_on_grid,
       toUInt8(toFloat64(position_x) = cell_x * 25) AS x_on_grid,
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

-- Every stored day's rows, copied as rows of their week: SummingMergeTree adds up the rows of a
-- week on merge (a GROUP BY over months of cells would hold them all in memory). Migrations run
-- before the consumer starts, so no batch is rolled up between the views and this copy.
INSERT INTO rollup_heatmap_overview_25_weekly
SELECT project_id, map_id, has_sample, event_name, toMonday(day), build_id, platform, source, cell_y, cell_x, y_on_grid, x_on_grid,
       events, frame_samples, frame_time_sum, frame_time_squares, fps_samples, fps_sum, memory_samples, memory_sum,
       gpu_time_samples, gpu_time_sum, game_thread_samples, game_thread_sum, render_thread_samples, render_thread_sum,
       hitches_33ms, hitches_50ms, min_z, max_z, `frame_time_histogramMap.bucket`, `frame_time_histogramMap.samples`, insert_mark
  FROM rollup_heatmap_overview_25;
