-- The heatmap overviews (014/015's 25-unit Performance and Events views, 026's weekly ones, 030's
-- and 031's 5-unit ones) aggregate what the full cell views write instead of every rollup_input row.
--
-- Why: one rollup_input insert runs every view on one ClickHouse thread, and the rollups bound
-- ingest (docs/performance.md). The eight overview views each grouped every raw row again,
-- computing its cell, log bucket and insert mark: ~5 of the ~11 s a million simulator events
-- took through rollup_input in one insert. A cell view's output holds one row per cell and
-- combination of name, build, platform and source of the block, and each overview is a coarser
-- grouping of those rows, so its cost follows the cell rows, not the events (docs/rollups.md
-- measures the gain). The 5-unit overviews read rollup_heatmap_cells_mv's rows, the 25-unit ones
-- rollup_heatmap_cells_25_mv's: the cells, day and on-grid flags are the same, so the overview
-- rows are the same sums, histogram entries ((bucket, 1) per sample, concatenated), min/max z
-- states and insert marks (a wrapping sum of the same event hashes) as before.
--
-- view_output(view, table) names the rows a view writes (libs/clickhouse migrations.ts): 18.16
-- runs the views that read the view itself, the modern engine those that read its target table,
-- and each ignores the other form. On the modern engine any insert into the cell tables therefore
-- feeds the overviews too (none does but the views; a backfill of the cells must not fill the
-- overviews again there), on 18.16 only the cell views' inserts do.
--
-- Exactly once as before: the cell views see only the rollup_input blocks of batches the ledger
-- has not rolled up (007), and a retried block gives the same rows in the same order (015).
-- The views are dropped and created again; no table changes. Rows inserted while this runs would
-- miss the overviews: it runs before the consumer starts, like every migration.
DROP TABLE IF EXISTS rollup_heatmap_overview_25_performance_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_25_events_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_25_weekly_performance_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_25_weekly_events_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_5_performance_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_5_weekly_performance_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_5_events_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_5_events_weekly_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_25_performance_mv TO rollup_heatmap_overview_25 AS
SELECT project_id, map_id, has_sample, '' AS event_name, day, '' AS build_id, '' AS platform,
       CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       cell_y, cell_x, y_on_grid, x_on_grid,
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
  FROM view_output(rollup_heatmap_cells_25_mv, rollup_heatmap_cells_25)
 WHERE has_sample = 1
 GROUP BY project_id, map_id, has_sample, day, cell_y, cell_x, y_on_grid, x_on_grid;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_25_events_mv TO rollup_heatmap_overview_25 AS
SELECT project_id, map_id, toUInt8(0) AS has_sample, event_name, day, '' AS build_id, '' AS platform,
       CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       cell_y, cell_x, y_on_grid, x_on_grid,
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
  FROM view_output(rollup_heatmap_cells_25_mv, rollup_heatmap_cells_25)
 GROUP BY project_id, map_id, event_name, day, cell_y, cell_x, y_on_grid, x_on_grid;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_25_weekly_performance_mv TO rollup_heatmap_overview_25_weekly AS
SELECT project_id, map_id, has_sample, '' AS event_name, toMonday(day) AS day, '' AS build_id, '' AS platform,
       CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       cell_y, cell_x, y_on_grid, x_on_grid,
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
  FROM view_output(rollup_heatmap_cells_25_mv, rollup_heatmap_cells_25)
 WHERE has_sample = 1
 GROUP BY project_id, map_id, has_sample, day, cell_y, cell_x, y_on_grid, x_on_grid;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_25_weekly_events_mv TO rollup_heatmap_overview_25_weekly AS
SELECT project_id, map_id, toUInt8(0) AS has_sample, event_name, toMonday(day) AS day, '' AS build_id, '' AS platform,
       CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       cell_y, cell_x, y_on_grid, x_on_grid,
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
  FROM view_output(rollup_heatmap_cells_25_mv, rollup_heatmap_cells_25)
 GROUP BY project_id, map_id, event_name, day, cell_y, cell_x, y_on_grid, x_on_grid;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_5_performance_mv TO rollup_heatmap_overview_5 AS
SELECT project_id, map_id, has_sample, '' AS event_name, day, '' AS build_id, '' AS platform,
       CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       cell_y, cell_x, y_on_grid, x_on_grid,
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
 WHERE has_sample = 1
 GROUP BY project_id, map_id, has_sample, day, cell_y, cell_x, y_on_grid, x_on_grid;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_5_weekly_performance_mv TO rollup_heatmap_overview_5_weekly AS
SELECT project_id, map_id, has_sample, '' AS event_name, toMonday(day) AS day, '' AS build_id, '' AS platform,
       CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       cell_y, cell_x, y_on_grid, x_on_grid,
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
 WHERE has_sample = 1
 GROUP BY project_id, map_id, has_sample, day, cell_y, cell_x, y_on_grid, x_on_grid;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_5_events_mv TO rollup_heatmap_overview_5_events AS
SELECT project_id, map_id, toUInt8(0) AS has_sample, event_name, day, '' AS build_id, '' AS platform,
       CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       cell_y, cell_x, y_on_grid, x_on_grid,
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
 GROUP BY project_id, map_id, event_name, day, cell_y, cell_x, y_on_grid, x_on_grid;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_5_events_weekly_mv TO rollup_heatmap_overview_5_events_weekly AS
SELECT project_id, map_id, toUInt8(0) AS has_sample, event_name, toMonday(day) AS day, '' AS build_id, '' AS platform,
       CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       cell_y, cell_x, y_on_grid, x_on_grid,
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
 GROUP BY project_id, map_id, event_name, day, cell_y, cell_x, y_on_grid, x_on_grid;
