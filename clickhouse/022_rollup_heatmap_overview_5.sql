-- The unfiltered heatmaps of 5 and 10 units from an overview at 5 units: one row per map, day
-- and 5-unit cell for Performance mode (event name '') and one per event name, without build,
-- platform or source, as rollup_heatmap_overview_25 (007) does for 25 and 50 units.
--
-- Why: those heatmaps read rollup_heatmap_cells, whose rows are also split by build, platform
-- and source. At 5 units a cell-day holds about one event per row until every combination is
-- filled, so their cost grew with the events: measured at 100 M events, a 7-day Performance
-- heatmap at 5 units took 3.9 s (0.77 s at 10 M) and a 30-day Events heatmap at 10 units 0.64 s
-- (0.13 s at 10 M). Here a map-day holds at most cells × (names + 1) rows, however many events,
-- builds and platforms it has.
--
-- Same columns as the cells (plain sums, the log-bucket frame-time histogram, min/max z states,
-- the insert mark of 015), so a heatmap reads it with the cells' aggregates and gives the same
-- answer (tests/analytics/rollup-equality.test.ts). Fed from rollup_input like every rollup
-- (the consumer's once-per-batch ledger). Filled first from rollup_heatmap_cells, whose rows
-- summed over build, platform and source are exactly the overview's (its rollups outlive the raw
-- events, so the whole rollup history is covered); then the views take over: rows inserted while
-- this runs would miss it, so it runs before the consumer starts, like every migration.
CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_5 AS rollup_heatmap_cells;

INSERT INTO rollup_heatmap_overview_5 (project_id, map_id, has_sample, event_name, day, build_id, platform, source,
       cell_y, cell_x, y_on_grid, x_on_grid, events, frame_samples, frame_time_sum, frame_time_squares,
       fps_samples, fps_sum, memory_samples, memory_sum, gpu_time_samples, gpu_time_sum, game_thread_samples,
       game_thread_sum, render_thread_samples, render_thread_sum, hitches_33ms, hitches_50ms, min_z, max_z,
       `frame_time_histogramMap.bucket`, `frame_time_histogramMap.samples`, insert_mark)
SELECT project_id, map_id, mode_has_sample, if(mode_has_sample = 1, '', event_name) AS mode_event_name, day, '', '', CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)),
       cell_y, cell_x, y_on_grid, x_on_grid, sum(events), sum(frame_samples), sum(frame_time_sum), sum(frame_time_squares),
       sum(fps_samples), sum(fps_sum), sum(memory_samples), sum(memory_sum), sum(gpu_time_samples), sum(gpu_time_sum),
       sum(game_thread_samples), sum(game_thread_sum), sum(render_thread_samples), sum(render_thread_sum),
       sum(hitches_33ms), sum(hitches_50ms), minMergeState(min_z), maxMergeState(max_z),
       tupleElement(sumMap(`frame_time_histogramMap.bucket`, `frame_time_histogramMap.samples`), 1),
       tupleElement(sumMap(`frame_time_histogramMap.bucket`, `frame_time_histogramMap.samples`), 2),
       sumWithOverflow(insert_mark)
  FROM rollup_heatmap_cells
 ARRAY JOIN [toUInt8(1), toUInt8(0)] AS mode_has_sample
 WHERE mode_has_sample = 0 OR has_sample = 1
 GROUP BY project_id, map_id, mode_has_sample, mode_event_name, day, cell_y, cell_x, y_on_grid, x_on_grid;

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

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_5_events_mv TO rollup_heatmap_overview_5 AS
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
