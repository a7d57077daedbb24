-- Rollup rows carry an insert mark, so that a replicated rollup table can tell a retried
-- block from another batch's block (docs/rollups.md, "On a cluster").
--
-- On a cluster the rollup tables are ReplicatedMergeTrees, and the consumer's once-per-batch
-- ledger (rollup_batches, 007) is replicated asynchronously: when the replica that took a rollup
-- insert dies before the other replica fetched its parts, the insert fails, the consumer retries,
-- the ledger read (served by the live replica) does not see those batches, and they were rolled
-- up a second time (measured: 11,540 events counted for 11,280 stored). ClickHouse's answer is
-- replicated insert deduplication: a replica refuses a block whose hash a replica of its shard
-- already committed (the block ids live in ZooKeeper with the parts). The consumer retries a
-- rollup block with the same rows in the same order, so each view derives the same rows and
-- the retry is dropped. But two different batches' rollup rows can be byte-equal too (same day,
-- cell and counts: measured, 100 of 500 test events dropped as "duplicates"). Hence the mark:
-- per rollup row, a wrapping sum of a hash of each event id behind it, equal only for the same
-- events. It means nothing to a reader (SummingMergeTree sums it on merge, AggregatingMergeTree
-- keeps one row's); on one server, where no table deduplicates, it is inert.
--
-- The build statistics' view also sums each histogram per bucket at insert (sumMapIf) instead
-- of writing one (bucket, 1) entry per value for the first merge to sum: a build-stats row
-- gathers thousands of events per insert, so until its part merged it held one entry per value
-- (measured at 10 M events: 13,333-16,667 entries per row, 158 MB read by the builds comparison
-- for 600 rows; ~37 entries once merged). The cell views keep one entry per value: their rows
-- hold about one event each, where summing at insert cost more (014).
--
-- The views are dropped and created again with the mark, otherwise as 014 defines them. Rows
-- inserted while this runs would miss the rollups: it runs before the consumer starts, like
-- every migration. (Each ALTER is guarded: 18.16 has no ADD COLUMN IF NOT EXISTS.)
-- framedeck:when-column-missing rollup_heatmap_cells insert_mark
ALTER TABLE rollup_heatmap_cells ADD COLUMN insert_mark UInt32;
-- framedeck:when-column-missing rollup_heatmap_cells_25 insert_mark
ALTER TABLE rollup_heatmap_cells_25 ADD COLUMN insert_mark UInt32;
-- framedeck:when-column-missing rollup_heatmap_overview_25 insert_mark
ALTER TABLE rollup_heatmap_overview_25 ADD COLUMN insert_mark UInt32;
-- framedeck:when-column-missing rollup_build_stats insert_mark
ALTER TABLE rollup_build_stats ADD COLUMN insert_mark UInt32;
-- framedeck:when-column-missing rollup_daily_counts insert_mark
ALTER TABLE rollup_daily_counts ADD COLUMN insert_mark UInt32;
-- framedeck:when-column-missing rollup_project_hours insert_mark
ALTER TABLE rollup_project_hours ADD COLUMN insert_mark UInt32;
-- framedeck:when-column-missing rollup_build_metric_values insert_mark
ALTER TABLE rollup_build_metric_values ADD COLUMN insert_mark UInt32;

DROP TABLE IF EXISTS rollup_heatmap_cells_mv;
DROP TABLE IF EXISTS rollup_heatmap_cells_25_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_25_performance_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_25_events_mv;
DROP TABLE IF EXISTS rollup_build_stats_mv;
DROP TABLE IF EXISTS rollup_daily_counts_mv;
DROP TABLE IF EXISTS rollup_project_hours_mv;
DROP TABLE IF EXISTS rollup_build_metric_values_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_cells_mv TO rollup_heatmap_cells AS
SELECT project_id, map_id, toUInt8(fps > 0 OR frame_time_ms > 0) AS has_sample, event_name, toDate(timestamp) AS day,
       build_id, platform, source,
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
 GROUP BY project_id, map_id, has_sample, event_name, day, build_id, platform, source, cell_y, cell_x, y_on_grid, x_on_grid;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_cells_25_mv TO rollup_heatmap_cells_25 AS
SELECT project_id, map_id, toUInt8(fps > 0 OR frame_time_ms > 0) AS has_sample, event_name, toDate(timestamp) AS day,
       build_id, platform, source,
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
 GROUP BY project_id, map_id, has_sample, event_name, day, build_id, platform, source, cell_y, cell_x, y_on_grid, x_on_grid;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_25_performance_mv TO rollup_heatmap_overview_25 AS
SELECT project_id, map_id, toUInt8(1) AS has_sample, '' AS event_name, toDate(timestamp) AS day, '' AS build_id,
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

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_25_events_mv TO rollup_heatmap_overview_25 AS
SELECT project_id, map_id, toUInt8(0) AS has_sample, event_name AS event_name, toDate(timestamp) AS day, '' AS build_id,
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

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_build_stats_mv TO rollup_build_stats AS
SELECT project_id, toDate(timestamp) AS day, build_id, map_id, platform, source,
       count() AS events,
       countIf(fps > 0 OR frame_time_ms > 0) AS samples,
       minState(timestamp) AS first_seen,
       maxState(timestamp) AS last_seen,
       countIf(fps > 0 AND (fps > 0 OR frame_time_ms > 0)) AS fps_samples,
       sumIf(toFloat64(fps), fps > 0 AND (fps > 0 OR frame_time_ms > 0)) AS fps_sum,
       tupleElement(sumMapIf([toUInt16(floor(log(greatest(toFloat64(fps), 0.0001)) / log(1.04)) + 235)], [toUInt64(1)], fps > 0 AND (fps > 0 OR frame_time_ms > 0)), 1) AS `fps_histogramMap.bucket`,
       tupleElement(sumMapIf([toUInt16(floor(log(greatest(toFloat64(fps), 0.0001)) / log(1.04)) + 235)], [toUInt64(1)], fps > 0 AND (fps > 0 OR frame_time_ms > 0)), 2) AS `fps_histogramMap.samples`,
       countIf(frame_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS frame_time_samples,
       sumIf(toFloat64(frame_time_ms), frame_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS frame_time_sum,
       tupleElement(sumMapIf([toUInt16(floor(log(greatest(toFloat64(frame_time_ms), 0.0001)) / log(1.04)) + 235)], [toUInt64(1)], frame_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)), 1) AS `frame_time_histogramMap.bucket`,
       tupleElement(sumMapIf([toUInt16(floor(log(greatest(toFloat64(frame_time_ms), 0.0001)) / log(1.04)) + 235)], [toUInt64(1)], frame_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)), 2) AS `frame_time_histogramMap.samples`,
       countIf(memory_used_bytes > 0 AND (fps > 0 OR frame_time_ms > 0)) AS memory_samples,
       sumIf(memory_used_bytes, memory_used_bytes > 0 AND (fps > 0 OR frame_time_ms > 0)) AS memory_sum,
       tupleElement(sumMapIf([toUInt16(floor(log(greatest(toFloat64(memory_used_bytes / 1048576), 0.0001)) / log(1.04)) + 235)], [toUInt64(1)], memory_used_bytes > 0 AND (fps > 0 OR frame_time_ms > 0)), 1) AS `memory_histogramMap.bucket`,
       tupleElement(sumMapIf([toUInt16(floor(log(greatest(toFloat64(memory_used_bytes / 1048576), 0.0001)) / log(1.04)) + 235)], [toUInt64(1)], memory_used_bytes > 0 AND (fps > 0 OR frame_time_ms > 0)), 2) AS `memory_histogramMap.samples`,
       countIf(gpu_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS gpu_time_samples,
       sumIf(toFloat64(gpu_time_ms), gpu_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS gpu_time_sum,
       tupleElement(sumMapIf([toUInt16(floor(log(greatest(toFloat64(gpu_time_ms), 0.0001)) / log(1.04)) + 235)], [toUInt64(1)], gpu_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)), 1) AS `gpu_time_histogramMap.bucket`,
       tupleElement(sumMapIf([toUInt16(floor(log(greatest(toFloat64(gpu_time_ms), 0.0001)) / log(1.04)) + 235)], [toUInt64(1)], gpu_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)), 2) AS `gpu_time_histogramMap.samples`,
       countIf(game_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS game_thread_samples,
       sumIf(toFloat64(game_thread_ms), game_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS game_thread_sum,
       tupleElement(sumMapIf([toUInt16(floor(log(greatest(toFloat64(game_thread_ms), 0.0001)) / log(1.04)) + 235)], [toUInt64(1)], game_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)), 1) AS `game_thread_histogramMap.bucket`,
       tupleElement(sumMapIf([toUInt16(floor(log(greatest(toFloat64(game_thread_ms), 0.0001)) / log(1.04)) + 235)], [toUInt64(1)], game_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)), 2) AS `game_thread_histogramMap.samples`,
       countIf(render_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS render_thread_samples,
       sumIf(toFloat64(render_thread_ms), render_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS render_thread_sum,
       tupleElement(sumMapIf([toUInt16(floor(log(greatest(toFloat64(render_thread_ms), 0.0001)) / log(1.04)) + 235)], [toUInt64(1)], render_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)), 1) AS `render_thread_histogramMap.bucket`,
       tupleElement(sumMapIf([toUInt16(floor(log(greatest(toFloat64(render_thread_ms), 0.0001)) / log(1.04)) + 235)], [toUInt64(1)], render_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)), 2) AS `render_thread_histogramMap.samples`,
       sumWithOverflow(toUInt32(cityHash64(toString(event_id)))) AS insert_mark
  FROM rollup_input
 GROUP BY project_id, day, build_id, map_id, platform, source;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_daily_counts_mv TO rollup_daily_counts AS
SELECT project_id, toDate(timestamp) AS day, event_name, map_id, platform, build_id, source, count() AS events,
       sumWithOverflow(toUInt32(cityHash64(toString(event_id)))) AS insert_mark
  FROM rollup_input
 GROUP BY project_id, day, event_name, map_id, platform, build_id, source;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_project_hours_mv TO rollup_project_hours AS
SELECT project_id, toStartOfHour(timestamp) AS hour,
       countState() AS events,
       uniqCombinedIfState(player_id, player_id != '') AS players,
       uniqCombinedState(session_id) AS sessions,
       maxState(timestamp_us) AS last_event_us,
       sumWithOverflow(toUInt32(cityHash64(toString(event_id)))) AS insert_mark
  FROM rollup_input
 GROUP BY project_id, hour;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_build_metric_values_mv TO rollup_build_metric_values AS
SELECT project_id, toDate(timestamp) AS day, build_id, map_id, platform, source,
       toUInt8(fps > 0 OR frame_time_ms > 0) AS has_sample,
       metric_key AS metric,
       countState() AS samples,
       avgState(metric_value) AS avg_value,
       quantilesState(0.5, 0.95, 0.99)(metric_value) AS value_q,
       sumWithOverflow(toUInt32(cityHash64(toString(event_id)))) AS insert_mark
  FROM rollup_input
 ARRAY JOIN metrics.key AS metric_key, metrics.value AS metric_value
 GROUP BY project_id, day, build_id, map_id, platform, source, has_sample, metric;
