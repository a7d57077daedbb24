-- Rollups as plain sums (docs/rollups.md, "Why plain sums"). 007's cell and build rollups
-- kept aggregate states (avgIf, varSampIf, countIf, quantileTiming): a query merged each state
-- row by row, and a quantileTiming state keeps raw values up to ~5,670 per row, so heatmaps and
-- the builds comparison cost grew with the events behind each row (measured on 10 M events:
-- a 7-day Performance heatmap's state merges 440 ms; the same rows as sums 29 ms).
-- Here every count, sum and sum of squares is a plain column of a SummingMergeTree (averages =
-- sum / samples, sample variance from the sum of squares), and quantiles come from a
-- histogram with constant-width log buckets (base 1.04: bucket k holds [1.04^(k-235),
-- 1.04^(k-234)) units; libs/analytics/src/log-histogram.ts reads it): a Nested "...Map"
-- column that SummingMergeTree sums per bucket, so once merged a row holds at most one entry
-- per occupied bucket whatever its volume. A view writes each value's bucket with a count of 1
-- (groupArrayIf: summing per bucket at insert, sumMapIf, cost 3 s more per million events on
-- the 5-unit cells, where a group is about one event); the first merge sums them, and a query
-- sums buckets with sumMap, so entries not merged yet count the same. A quantile is reported as its bucket's geometric middle: within
-- 2 % of the nearest-rank value, and the plain query over events computes the same histogram,
-- so both sources give the same answer. Min/max z stay aggregate states (no plain min in a
-- SummingMergeTree on 18.16), read only when a view asks for heights.
--
-- The sorting key puts the mode (frame-sample flag, event name) before the day: a heatmap reads
-- one contiguous range for its whole window instead of one slice per day.
--
-- Fed from rollup_input like 007's views (the consumer inserts each batch there once: 007's
-- at-most-once guarantee). To fill the new tables from the stored events without adding those
-- events to 007's other rollups again, 007's other views are dropped while the stored events go
-- through rollup_input, and created again after, with 007's definitions (a view on a Null table
-- that a view fills is not triggered on 18.16, so a separate input table cannot be chained).
-- Rows inserted while this runs would miss the rollups: it runs before the consumer starts,
-- like every migration.
DROP TABLE IF EXISTS rollup_heatmap_cells_mv;
DROP TABLE IF EXISTS rollup_heatmap_cells_25_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_25_performance_mv;
DROP TABLE IF EXISTS rollup_heatmap_overview_25_events_mv;
DROP TABLE IF EXISTS rollup_build_stats_mv;
DROP TABLE IF EXISTS rollup_heatmap_cells;
DROP TABLE IF EXISTS rollup_heatmap_cells_25;
DROP TABLE IF EXISTS rollup_heatmap_overview_25;
DROP TABLE IF EXISTS rollup_build_stats;
DROP TABLE IF EXISTS rollup_batches_mv;
DROP TABLE IF EXISTS rollup_daily_counts_mv;
DROP TABLE IF EXISTS rollup_project_hours_mv;
DROP TABLE IF EXISTS rollup_build_metric_values_mv;

-- Heatmap cells at 5 units (cell = floor(x / 5), on an absolute grid; x_on_grid marks a point
-- exactly on a grid line, see 007) per project × map × frame-sample flag × event name × day ×
-- build × platform × source.
CREATE TABLE IF NOT EXISTS rollup_heatmap_cells (
  project_id            UUID,
  map_id                String,
  has_sample            UInt8,
  event_name            String,
  day                   Date,
  build_id              String,
  platform              String,
  source                Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2),
  cell_y                Int64,
  cell_x                Int64,
  y_on_grid             UInt8,
  x_on_grid             UInt8,
  events                UInt64,
  frame_samples         UInt64,
  frame_time_sum        Float64,
  frame_time_squares    Float64,
  fps_samples           UInt64,
  fps_sum               Float64,
  memory_samples        UInt64,
  memory_sum            Int64,
  gpu_time_samples      UInt64,
  gpu_time_sum          Float64,
  game_thread_samples   UInt64,
  game_thread_sum       Float64,
  render_thread_samples UInt64,
  render_thread_sum     Float64,
  hitches_33ms          UInt64,
  hitches_50ms          UInt64,
  min_z                 AggregateFunction(min, Float32),
  max_z                 AggregateFunction(max, Float32),
  frame_time_histogramMap Nested(bucket UInt16, samples UInt64)
)
ENGINE = SummingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, map_id, has_sample, event_name, day, build_id, platform, source, cell_y, cell_x, y_on_grid, x_on_grid);

-- The same cells at 25 units, and the unfiltered views at 25 units (one row per map × day ×
-- cell for Performance mode, event name '', and one per event name, without build, platform
-- or source): see 007 for which heatmaps read which.
CREATE TABLE IF NOT EXISTS rollup_heatmap_cells_25 AS rollup_heatmap_cells;
CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_25 AS rollup_heatmap_cells;

-- NOTE: positions are clamped to ±1e15 before the cell index (finite, validated by the
-- consumer) so the Int64 conversion cannot wrap into a map's range.
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
       arrayMap(b -> toUInt64(1), groupArrayIf(toUInt16(floor(log(greatest(toFloat64(frame_time_ms), 0.0001)) / log(1.04)) + 235), frame_time_ms > 0)) AS `frame_time_histogramMap.samples`
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
       arrayMap(b -> toUInt64(1), groupArrayIf(toUInt16(floor(log(greatest(toFloat64(frame_time_ms), 0.0001)) / log(1.04)) + 235), frame_time_ms > 0)) AS `frame_time_histogramMap.samples`
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
       arrayMap(b -> toUInt64(1), groupArrayIf(toUInt16(floor(log(greatest(toFloat64(frame_time_ms), 0.0001)) / log(1.04)) + 235), frame_time_ms > 0)) AS `frame_time_histogramMap.samples`
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
       arrayMap(b -> toUInt64(1), groupArrayIf(toUInt16(floor(log(greatest(toFloat64(frame_time_ms), 0.0001)) / log(1.04)) + 235), frame_time_ms > 0)) AS `frame_time_histogramMap.samples`
  FROM rollup_input
 WHERE has_position = 1
 GROUP BY project_id, map_id, event_name, day, cell_y, cell_x, y_on_grid, x_on_grid;

-- Per project × day × build × map × platform × source: the builds list and comparison. Each
-- metric over the events carrying a frame sample and a value above 0 (0 = not collected):
-- samples, sum and a log-bucket histogram (memory in MB).
CREATE TABLE IF NOT EXISTS rollup_build_stats (
  project_id  UUID,
  day         Date,
  build_id    String,
  map_id      String,
  platform    String,
  source      Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2),
  events      UInt64,
  samples     UInt64,
  first_seen  AggregateFunction(min, DateTime),
  last_seen   AggregateFunction(max, DateTime),
  fps_samples  UInt64,
  fps_sum      Float64,
  fps_histogramMap Nested(bucket UInt16, samples UInt64),
  frame_time_samples  UInt64,
  frame_time_sum      Float64,
  frame_time_histogramMap Nested(bucket UInt16, samples UInt64),
  memory_samples  UInt64,
  memory_sum      Int64,
  memory_histogramMap Nested(bucket UInt16, samples UInt64),
  gpu_time_samples  UInt64,
  gpu_time_sum      Float64,
  gpu_time_histogramMap Nested(bucket UInt16, samples UInt64),
  game_thread_samples  UInt64,
  game_thread_sum      Float64,
  game_thread_histogramMap Nested(bucket UInt16, samples UInt64),
  render_thread_samples  UInt64,
  render_thread_sum      Float64,
  render_thread_histogramMap Nested(bucket UInt16, samples UInt64)
)
ENGINE = SummingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day, build_id, map_id, platform, source);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_build_stats_mv TO rollup_build_stats AS
SELECT project_id, toDate(timestamp) AS day, build_id, map_id, platform, source,
       count() AS events,
       countIf(fps > 0 OR frame_time_ms > 0) AS samples,
       minState(timestamp) AS first_seen,
       maxState(timestamp) AS last_seen,
       countIf(fps > 0 AND (fps > 0 OR frame_time_ms > 0)) AS fps_samples,
       sumIf(toFloat64(fps), fps > 0 AND (fps > 0 OR frame_time_ms > 0)) AS fps_sum,
       groupArrayIf(toUInt16(floor(log(greatest(toFloat64(fps), 0.0001)) / log(1.04)) + 235), fps > 0 AND (fps > 0 OR frame_time_ms > 0)) AS `fps_histogramMap.bucket`,
       arrayMap(b -> toUInt64(1), groupArrayIf(toUInt16(floor(log(greatest(toFloat64(fps), 0.0001)) / log(1.04)) + 235), fps > 0 AND (fps > 0 OR frame_time_ms > 0))) AS `fps_histogramMap.samples`,
       countIf(frame_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS frame_time_samples,
       sumIf(toFloat64(frame_time_ms), frame_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS frame_time_sum,
       groupArrayIf(toUInt16(floor(log(greatest(toFloat64(frame_time_ms), 0.0001)) / log(1.04)) + 235), frame_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS `frame_time_histogramMap.bucket`,
       arrayMap(b -> toUInt64(1), groupArrayIf(toUInt16(floor(log(greatest(toFloat64(frame_time_ms), 0.0001)) / log(1.04)) + 235), frame_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0))) AS `frame_time_histogramMap.samples`,
       countIf(memory_used_bytes > 0 AND (fps > 0 OR frame_time_ms > 0)) AS memory_samples,
       sumIf(memory_used_bytes, memory_used_bytes > 0 AND (fps > 0 OR frame_time_ms > 0)) AS memory_sum,
       groupArrayIf(toUInt16(floor(log(greatest(toFloat64(memory_used_bytes / 1048576), 0.0001)) / log(1.04)) + 235), memory_used_bytes > 0 AND (fps > 0 OR frame_time_ms > 0)) AS `memory_histogramMap.bucket`,
       arrayMap(b -> toUInt64(1), groupArrayIf(toUInt16(floor(log(greatest(toFloat64(memory_used_bytes / 1048576), 0.0001)) / log(1.04)) + 235), memory_used_bytes > 0 AND (fps > 0 OR frame_time_ms > 0))) AS `memory_histogramMap.samples`,
       countIf(gpu_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS gpu_time_samples,
       sumIf(toFloat64(gpu_time_ms), gpu_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS gpu_time_sum,
       groupArrayIf(toUInt16(floor(log(greatest(toFloat64(gpu_time_ms), 0.0001)) / log(1.04)) + 235), gpu_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS `gpu_time_histogramMap.bucket`,
       arrayMap(b -> toUInt64(1), groupArrayIf(toUInt16(floor(log(greatest(toFloat64(gpu_time_ms), 0.0001)) / log(1.04)) + 235), gpu_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0))) AS `gpu_time_histogramMap.samples`,
       countIf(game_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS game_thread_samples,
       sumIf(toFloat64(game_thread_ms), game_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS game_thread_sum,
       groupArrayIf(toUInt16(floor(log(greatest(toFloat64(game_thread_ms), 0.0001)) / log(1.04)) + 235), game_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS `game_thread_histogramMap.bucket`,
       arrayMap(b -> toUInt64(1), groupArrayIf(toUInt16(floor(log(greatest(toFloat64(game_thread_ms), 0.0001)) / log(1.04)) + 235), game_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0))) AS `game_thread_histogramMap.samples`,
       countIf(render_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS render_thread_samples,
       sumIf(toFloat64(render_thread_ms), render_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS render_thread_sum,
       groupArrayIf(toUInt16(floor(log(greatest(toFloat64(render_thread_ms), 0.0001)) / log(1.04)) + 235), render_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS `render_thread_histogramMap.bucket`,
       arrayMap(b -> toUInt64(1), groupArrayIf(toUInt16(floor(log(greatest(toFloat64(render_thread_ms), 0.0001)) / log(1.04)) + 235), render_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0))) AS `render_thread_histogramMap.samples`
  FROM rollup_input
 GROUP BY project_id, day, build_id, map_id, platform, source;

-- The stored events, each once (FINAL), into the new rollups only (007's other views are dropped above).
INSERT INTO rollup_input (project_id, event_id, event_name, timestamp_us, timestamp, session_id, player_id,
       has_position, position_x, position_y, position_z, map_id, fps, frame_time_ms, memory_used_bytes, gpu_time_ms,
       attributes.key, attributes.value, metrics.key, metrics.value, source, build_id, platform, engine_version,
       camera_yaw, camera_pitch, game_thread_ms, render_thread_ms, sdk_version, received_at)
SELECT project_id, event_id, event_name, timestamp_us, timestamp, session_id, player_id, has_position,
       position_x, position_y, position_z, map_id, fps, frame_time_ms, memory_used_bytes, gpu_time_ms,
       attributes.key, attributes.value, metrics.key, metrics.value, source, build_id, platform,
       engine_version, camera_yaw, camera_pitch, game_thread_ms, render_thread_ms, sdk_version, received_at
  FROM events FINAL;

-- 007's other views again, as 007 defines them.
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_batches_mv TO rollup_batches AS
SELECT DISTINCT project_id, substring(toString(event_id), 1, 28) AS batch_key, batch_first_index AS first_index,
       today() AS day
  FROM rollup_input;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_daily_counts_mv TO rollup_daily_counts AS
SELECT project_id, toDate(timestamp) AS day, event_name, map_id, platform, build_id, source, count() AS events
  FROM rollup_input
 GROUP BY project_id, day, event_name, map_id, platform, build_id, source;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_project_hours_mv TO rollup_project_hours AS
SELECT project_id, toStartOfHour(timestamp) AS hour,
       countState() AS events,
       uniqCombinedIfState(player_id, player_id != '') AS players,
       uniqCombinedState(session_id) AS sessions,
       maxState(timestamp_us) AS last_event_us
  FROM rollup_input
 GROUP BY project_id, hour;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_build_metric_values_mv TO rollup_build_metric_values AS
SELECT project_id, toDate(timestamp) AS day, build_id, map_id, platform, source,
       toUInt8(fps > 0 OR frame_time_ms > 0) AS has_sample,
       metric_key AS metric,
       countState() AS samples,
       avgState(metric_value) AS avg_value,
       quantilesState(0.5, 0.95, 0.99)(metric_value) AS value_q
  FROM rollup_input
 ARRAY JOIN metrics.key AS metric_key, metrics.value AS metric_value
 GROUP BY project_id, day, build_id, map_id, platform, source, has_sample, metric;
