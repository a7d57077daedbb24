-- Rollups: what every analytics query of the API reads instead of the events, so that its cost
-- grows with cells × days × dimensions, not with the number of events (docs/rollups.md).
--
-- Fed by rollup_input, not by events. Delivery from Kafka is at-least-once: a redelivered
-- batch is inserted into events again (FINAL collapses it there), but a materialized view on
-- events would add its counts twice, for good. So the consumer inserts each batch into
-- rollup_input at most once: before inserting a block it looks up the block's batches in
-- rollup_batches (written by a view of this same insert) and leaves out those already rolled
-- up. The guarantee and its one residual case are stated in docs/rollups.md.
--
-- rollup_input: the consumer's RowBinary rows (the events insert's column list,
-- EVENT_INSERT_COLUMNS), stored nowhere; the views below aggregate each inserted block.
CREATE TABLE IF NOT EXISTS rollup_input (
  project_id         UUID,
  event_id           UUID,
  event_name         String,
  timestamp_us       Int64,
  timestamp          DateTime,
  session_id         String,
  player_id          String,
  has_position       UInt8,
  position_x         Float32,
  position_y         Float32,
  position_z         Float32,
  map_id             String,
  fps                Float32,
  frame_time_ms      Float32,
  memory_used_bytes  Int64,
  gpu_time_ms        Float32,
  attributes         Nested(key String, value String),
  metrics            Nested(key String, value Float64),
  source             Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2),
  build_id           String,
  platform           String,
  engine_version     String,
  camera_yaw         Nullable(Float32),
  camera_pitch       Nullable(Float32),
  game_thread_ms     Float32,
  render_thread_ms   Float32,
  sdk_version        String,
  received_at        DateTime,
  retention_days     UInt16,
  batch_first_index  UInt32
)
ENGINE = Null;

-- The Kafka messages already rolled up, one row per (project, batch, part). batch_key is the
-- batch id's text form without its last 8 hex digits: every event id of a batch shares it
-- (event ids are the batch id with the event's index XORed into those digits,
-- libs/clickhouse/event-id.ts), so a view can derive it from the rows; first_index tells the
-- parts of a batch split over several messages apart. Kept 31 days: a batch older than the
-- 30-day ingest window cannot be accepted again.
CREATE TABLE IF NOT EXISTS rollup_batches (
  project_id  UUID,
  batch_key   String,
  first_index UInt32,
  day         Date
)
ENGINE = ReplacingMergeTree()
PARTITION BY day
ORDER BY (batch_key, project_id, first_index);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_batches_mv TO rollup_batches AS
SELECT DISTINCT project_id, substring(toString(event_id), 1, 28) AS batch_key, batch_first_index AS first_index,
       today() AS day
  FROM rollup_input;

-- Heatmap cells at the finest cell size (5 world units, on an absolute grid: cell_x =
-- floor(x / 5)), per project × map × day × frame-sample flag × event name × build × platform
-- × source. Coarser cells (10, 25, 50) are sums of these on maps whose bounds lie on the
-- 5-unit grid. x_on_grid / y_on_grid mark positions exactly on a grid line: a point exactly on
-- a map's max edge belongs to the map's last cell, a point just past it to no cell.
-- Frame time quantiles: quantileTiming over tenths of a millisecond (its state is a histogram:
-- merging states gives exactly what one pass over the events gives).
CREATE TABLE IF NOT EXISTS rollup_heatmap_cells (
  project_id       UUID,
  map_id           String,
  day              Date,
  has_sample       UInt8,
  event_name       String,
  build_id         String,
  platform         String,
  source           Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2),
  cell_y           Int64,
  cell_x           Int64,
  y_on_grid        UInt8,
  x_on_grid        UInt8,
  events           AggregateFunction(count),
  avg_fps          AggregateFunction(avgIf, Float32, UInt8),
  avg_frame_time   AggregateFunction(avgIf, Float32, UInt8),
  frame_samples    AggregateFunction(countIf, UInt8),
  frame_time_q     AggregateFunction(quantilesTimingIf(0.5, 0.95, 0.99), Float64, UInt8),
  -- Sample variance of frame time: with the mean and count, what the per-cell build comparison
  -- tests (Welch) without the events.
  frame_time_var   AggregateFunction(varSampIf, Float32, UInt8),
  hitches_33ms     AggregateFunction(countIf, UInt8),
  hitches_50ms     AggregateFunction(countIf, UInt8),
  avg_memory       AggregateFunction(avgIf, Int64, UInt8),
  avg_gpu_time     AggregateFunction(avgIf, Float32, UInt8),
  gpu_samples      AggregateFunction(countIf, UInt8),
  avg_game_thread  AggregateFunction(avgIf, Float32, UInt8),
  avg_render_thread AggregateFunction(avgIf, Float32, UInt8),
  min_z            AggregateFunction(min, Float32),
  max_z            AggregateFunction(max, Float32)
)
ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, map_id, day, has_sample, event_name, build_id, platform, source, cell_y, cell_x, y_on_grid, x_on_grid);

-- NOTE: positions are clamped to ±1e15 before the cell index (finite, validated by the
-- consumer) so the Int64 conversion cannot wrap into a map's range.
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_cells_mv TO rollup_heatmap_cells AS
SELECT project_id, map_id, toDate(timestamp) AS day,
       toUInt8(fps > 0 OR frame_time_ms > 0) AS has_sample,
       event_name, build_id, platform, source,
       toInt64(floor(greatest(least(toFloat64(position_y), 1e15), -1e15) / 5)) AS cell_y,
       toInt64(floor(greatest(least(toFloat64(position_x), 1e15), -1e15) / 5)) AS cell_x,
       toUInt8(toFloat64(position_y) = cell_y * 5) AS y_on_grid,
       toUInt8(toFloat64(position_x) = cell_x * 5) AS x_on_grid,
       countState() AS events,
       avgIfState(fps, fps > 0) AS avg_fps,
       avgIfState(frame_time_ms, frame_time_ms > 0) AS avg_frame_time,
       countIfState(frame_time_ms > 0) AS frame_samples,
       quantilesTimingIfState(0.5, 0.95, 0.99)(toFloat64(round(frame_time_ms * 10)), frame_time_ms > 0) AS frame_time_q,
       varSampIfState(frame_time_ms, frame_time_ms > 0) AS frame_time_var,
       countIfState(frame_time_ms > 33.3) AS hitches_33ms,
       countIfState(frame_time_ms > 50) AS hitches_50ms,
       avgIfState(memory_used_bytes, memory_used_bytes > 0) AS avg_memory,
       avgIfState(gpu_time_ms, gpu_time_ms > 0) AS avg_gpu_time,
       countIfState(gpu_time_ms > 0) AS gpu_samples,
       avgIfState(game_thread_ms, game_thread_ms > 0) AS avg_game_thread,
       avgIfState(render_thread_ms, render_thread_ms > 0) AS avg_render_thread,
       minState(position_z) AS min_z,
       maxState(position_z) AS max_z
  FROM rollup_input
 WHERE has_position = 1
 GROUP BY project_id, map_id, day, has_sample, event_name, build_id, platform, source, cell_y, cell_x, y_on_grid, x_on_grid;

-- The same cells at 25 units (cell = floor(x / 25)): heatmaps of 25 and 50 units (the
-- default cell size) on maps whose bounds lie on the 25-unit grid read these, 25 times fewer
-- cells than the 5-unit ones — on a big map with scattered positions the 5-unit rollup holds
-- nearly a row per event until volume fills its cells.
CREATE TABLE IF NOT EXISTS rollup_heatmap_cells_25 AS rollup_heatmap_cells;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_cells_25_mv TO rollup_heatmap_cells_25 AS
SELECT project_id, map_id, toDate(timestamp) AS day,
       toUInt8(fps > 0 OR frame_time_ms > 0) AS has_sample,
       event_name, build_id, platform, source,
       toInt64(floor(greatest(least(toFloat64(position_y), 1e15), -1e15) / 25)) AS cell_y,
       toInt64(floor(greatest(least(toFloat64(position_x), 1e15), -1e15) / 25)) AS cell_x,
       toUInt8(toFloat64(position_y) = cell_y * 25) AS y_on_grid,
       toUInt8(toFloat64(position_x) = cell_x * 25) AS x_on_grid,
       countState() AS events,
       avgIfState(fps, fps > 0) AS avg_fps,
       avgIfState(frame_time_ms, frame_time_ms > 0) AS avg_frame_time,
       countIfState(frame_time_ms > 0) AS frame_samples,
       quantilesTimingIfState(0.5, 0.95, 0.99)(toFloat64(round(frame_time_ms * 10)), frame_time_ms > 0) AS frame_time_q,
       varSampIfState(frame_time_ms, frame_time_ms > 0) AS frame_time_var,
       countIfState(frame_time_ms > 33.3) AS hitches_33ms,
       countIfState(frame_time_ms > 50) AS hitches_50ms,
       avgIfState(memory_used_bytes, memory_used_bytes > 0) AS avg_memory,
       avgIfState(gpu_time_ms, gpu_time_ms > 0) AS avg_gpu_time,
       countIfState(gpu_time_ms > 0) AS gpu_samples,
       avgIfState(game_thread_ms, game_thread_ms > 0) AS avg_game_thread,
       avgIfState(render_thread_ms, render_thread_ms > 0) AS avg_render_thread,
       minState(position_z) AS min_z,
       maxState(position_z) AS max_z
  FROM rollup_input
 WHERE has_position = 1
 GROUP BY project_id, map_id, day, has_sample, event_name, build_id, platform, source, cell_y, cell_x, y_on_grid, x_on_grid;

-- The unfiltered views at 25 units, the common case, in far fewer rows: per project × map ×
-- day × 25-unit cell, one row for Performance mode (event_name '', every event with a frame
-- sample) and one per event name (Events mode), without build, platform or source. A map-day
-- then holds at most cells × (names + 1) rows however many events it has, where the full
-- rollups multiply that by builds × platforms × sources (and are read only when a view
-- filters by one of them).
CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_25 AS rollup_heatmap_cells;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_25_performance_mv TO rollup_heatmap_overview_25 AS
SELECT project_id, map_id, toDate(timestamp) AS day, toUInt8(1) AS has_sample, '' AS event_name, '' AS build_id,
       '' AS platform, CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       toInt64(floor(greatest(least(toFloat64(position_y), 1e15), -1e15) / 25)) AS cell_y,
       toInt64(floor(greatest(least(toFloat64(position_x), 1e15), -1e15) / 25)) AS cell_x,
       toUInt8(toFloat64(position_y) = cell_y * 25) AS y_on_grid,
       toUInt8(toFloat64(position_x) = cell_x * 25) AS x_on_grid,
       countState() AS events,
       avgIfState(fps, fps > 0) AS avg_fps,
       avgIfState(frame_time_ms, frame_time_ms > 0) AS avg_frame_time,
       countIfState(frame_time_ms > 0) AS frame_samples,
       quantilesTimingIfState(0.5, 0.95, 0.99)(toFloat64(round(frame_time_ms * 10)), frame_time_ms > 0) AS frame_time_q,
       varSampIfState(frame_time_ms, frame_time_ms > 0) AS frame_time_var,
       countIfState(frame_time_ms > 33.3) AS hitches_33ms,
       countIfState(frame_time_ms > 50) AS hitches_50ms,
       avgIfState(memory_used_bytes, memory_used_bytes > 0) AS avg_memory,
       avgIfState(gpu_time_ms, gpu_time_ms > 0) AS avg_gpu_time,
       countIfState(gpu_time_ms > 0) AS gpu_samples,
       avgIfState(game_thread_ms, game_thread_ms > 0) AS avg_game_thread,
       avgIfState(render_thread_ms, render_thread_ms > 0) AS avg_render_thread,
       minState(position_z) AS min_z,
       maxState(position_z) AS max_z
  FROM rollup_input
 WHERE has_position = 1 AND (fps > 0 OR frame_time_ms > 0)
 GROUP BY project_id, map_id, day, cell_y, cell_x, y_on_grid, x_on_grid;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_heatmap_overview_25_events_mv TO rollup_heatmap_overview_25 AS
SELECT project_id, map_id, toDate(timestamp) AS day, toUInt8(0) AS has_sample, event_name, '' AS build_id,
       '' AS platform, CAST('unspecified' AS Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2)) AS source,
       toInt64(floor(greatest(least(toFloat64(position_y), 1e15), -1e15) / 25)) AS cell_y,
       toInt64(floor(greatest(least(toFloat64(position_x), 1e15), -1e15) / 25)) AS cell_x,
       toUInt8(toFloat64(position_y) = cell_y * 25) AS y_on_grid,
       toUInt8(toFloat64(position_x) = cell_x * 25) AS x_on_grid,
       countState() AS events,
       avgIfState(fps, fps > 0) AS avg_fps,
       avgIfState(frame_time_ms, frame_time_ms > 0) AS avg_frame_time,
       countIfState(frame_time_ms > 0) AS frame_samples,
       quantilesTimingIfState(0.5, 0.95, 0.99)(toFloat64(round(frame_time_ms * 10)), frame_time_ms > 0) AS frame_time_q,
       varSampIfState(frame_time_ms, frame_time_ms > 0) AS frame_time_var,
       countIfState(frame_time_ms > 33.3) AS hitches_33ms,
       countIfState(frame_time_ms > 50) AS hitches_50ms,
       avgIfState(memory_used_bytes, memory_used_bytes > 0) AS avg_memory,
       avgIfState(gpu_time_ms, gpu_time_ms > 0) AS avg_gpu_time,
       countIfState(gpu_time_ms > 0) AS gpu_samples,
       avgIfState(game_thread_ms, game_thread_ms > 0) AS avg_game_thread,
       avgIfState(render_thread_ms, render_thread_ms > 0) AS avg_render_thread,
       minState(position_z) AS min_z,
       maxState(position_z) AS max_z
  FROM rollup_input
 WHERE has_position = 1
 GROUP BY project_id, map_id, day, event_name, cell_y, cell_x, y_on_grid, x_on_grid;

-- Events per project × day × event name × map × platform × build × source: count insights,
-- the dashboard's and the status page's event counts.
CREATE TABLE IF NOT EXISTS rollup_daily_counts (
  project_id UUID,
  day        Date,
  event_name String,
  map_id     String,
  platform   String,
  build_id   String,
  source     Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2),
  events     UInt64
)
ENGINE = SummingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day, event_name, map_id, platform, build_id, source);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_daily_counts_mv TO rollup_daily_counts AS
SELECT project_id, toDate(timestamp) AS day, event_name, map_id, platform, build_id, source, count() AS events
  FROM rollup_input
 GROUP BY project_id, day, event_name, map_id, platform, build_id, source;

-- Per project and UTC hour: events, distinct players and sessions (uniqCombined states: their
-- union is the state one pass over the events builds, so per-day and per-range answers equal
-- the events' own), and the latest event. The dashboard and the status page read it.
CREATE TABLE IF NOT EXISTS rollup_project_hours (
  project_id    UUID,
  hour          DateTime,
  events        AggregateFunction(count),
  players       AggregateFunction(uniqCombinedIf, String, UInt8),
  sessions      AggregateFunction(uniqCombined, String),
  last_event_us AggregateFunction(max, Int64)
)
ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(hour)
ORDER BY (project_id, hour);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_project_hours_mv TO rollup_project_hours AS
SELECT project_id, toStartOfHour(timestamp) AS hour,
       countState() AS events,
       uniqCombinedIfState(player_id, player_id != '') AS players,
       uniqCombinedState(session_id) AS sessions,
       maxState(timestamp_us) AS last_event_us
  FROM rollup_input
 GROUP BY project_id, hour;

-- Per project × day × build × map × platform × source: the builds list and the builds
-- comparison. Statistics of each metric over the events carrying a frame sample and a value
-- above 0 (0 = not collected), as the comparison defines them. Quantiles: quantileTiming
-- (a histogram state: merged states give exactly one pass's answer) over tenths of a unit for
-- fps and the times (exact below 102.4, 1.6 steps above) and over MB for memory (exact below
-- 1,024 MB, 16 MB steps above). A reservoir quantile's state holds up to 8,192 values: merging
-- a month of them per build cost more than the whole comparison may.
CREATE TABLE IF NOT EXISTS rollup_build_stats (
  project_id      UUID,
  day             Date,
  build_id        String,
  map_id          String,
  platform        String,
  source          Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2),
  events          AggregateFunction(count),
  samples         AggregateFunction(countIf, UInt8),
  first_seen      AggregateFunction(min, DateTime),
  last_seen       AggregateFunction(max, DateTime),
  fps_n           AggregateFunction(countIf, UInt8),
  fps_avg         AggregateFunction(avgIf, Float32, UInt8),
  fps_q           AggregateFunction(quantilesTimingIf(0.5, 0.95, 0.99), Float64, UInt8),
  frame_time_n    AggregateFunction(countIf, UInt8),
  frame_time_avg  AggregateFunction(avgIf, Float32, UInt8),
  frame_time_q    AggregateFunction(quantilesTimingIf(0.5, 0.95, 0.99), Float64, UInt8),
  memory_n        AggregateFunction(countIf, UInt8),
  memory_avg      AggregateFunction(avgIf, Int64, UInt8),
  memory_q        AggregateFunction(quantilesTimingIf(0.5, 0.95, 0.99), Float64, UInt8),
  gpu_time_n      AggregateFunction(countIf, UInt8),
  gpu_time_avg    AggregateFunction(avgIf, Float32, UInt8),
  gpu_time_q      AggregateFunction(quantilesTimingIf(0.5, 0.95, 0.99), Float64, UInt8),
  game_thread_n   AggregateFunction(countIf, UInt8),
  game_thread_avg AggregateFunction(avgIf, Float32, UInt8),
  game_thread_q   AggregateFunction(quantilesTimingIf(0.5, 0.95, 0.99), Float64, UInt8),
  render_thread_n   AggregateFunction(countIf, UInt8),
  render_thread_avg AggregateFunction(avgIf, Float32, UInt8),
  render_thread_q   AggregateFunction(quantilesTimingIf(0.5, 0.95, 0.99), Float64, UInt8)
)
ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day, build_id, map_id, platform, source);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_build_stats_mv TO rollup_build_stats AS
SELECT project_id, toDate(timestamp) AS day, build_id, map_id, platform, source,
       countState() AS events,
       countIfState(fps > 0 OR frame_time_ms > 0) AS samples,
       minState(timestamp) AS first_seen,
       maxState(timestamp) AS last_seen,
       countIfState(fps > 0 AND (fps > 0 OR frame_time_ms > 0)) AS fps_n,
       avgIfState(fps, fps > 0 AND (fps > 0 OR frame_time_ms > 0)) AS fps_avg,
       quantilesTimingIfState(0.5, 0.95, 0.99)(toFloat64(round(fps * 10)), fps > 0 AND (fps > 0 OR frame_time_ms > 0)) AS fps_q,
       countIfState(frame_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS frame_time_n,
       avgIfState(frame_time_ms, frame_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS frame_time_avg,
       quantilesTimingIfState(0.5, 0.95, 0.99)(toFloat64(round(frame_time_ms * 10)), frame_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS frame_time_q,
       countIfState(memory_used_bytes > 0 AND (fps > 0 OR frame_time_ms > 0)) AS memory_n,
       avgIfState(memory_used_bytes, memory_used_bytes > 0 AND (fps > 0 OR frame_time_ms > 0)) AS memory_avg,
       quantilesTimingIfState(0.5, 0.95, 0.99)(toFloat64(round(memory_used_bytes / 1048576)), memory_used_bytes > 0 AND (fps > 0 OR frame_time_ms > 0)) AS memory_q,
       countIfState(gpu_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS gpu_time_n,
       avgIfState(gpu_time_ms, gpu_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS gpu_time_avg,
       quantilesTimingIfState(0.5, 0.95, 0.99)(toFloat64(round(gpu_time_ms * 10)), gpu_time_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS gpu_time_q,
       countIfState(game_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS game_thread_n,
       avgIfState(game_thread_ms, game_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS game_thread_avg,
       quantilesTimingIfState(0.5, 0.95, 0.99)(toFloat64(round(game_thread_ms * 10)), game_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS game_thread_q,
       countIfState(render_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS render_thread_n,
       avgIfState(render_thread_ms, render_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS render_thread_avg,
       quantilesTimingIfState(0.5, 0.95, 0.99)(toFloat64(round(render_thread_ms * 10)), render_thread_ms > 0 AND (fps > 0 OR frame_time_ms > 0)) AS render_thread_q
  FROM rollup_input
 GROUP BY project_id, day, build_id, map_id, platform, source;

-- Values of the events' metrics map (io.read_bytes, mem.vram, load_time_ms, ...) per project ×
-- day × build × map × platform × source × frame-sample flag × key: what the builds
-- comparison reports beside the fixed fields (the Framedash CLI's perf-diff reads them).
-- Values of 0 count (for I/O, 0 is a measurement). Rows grow with the number of distinct keys
-- a project sends, not with its events (docs/rollups.md).
CREATE TABLE IF NOT EXISTS rollup_build_metric_values (
  project_id  UUID,
  day         Date,
  build_id    String,
  map_id      String,
  platform    String,
  source      Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2),
  has_sample  UInt8,
  metric      String,
  samples     AggregateFunction(count),
  avg_value   AggregateFunction(avg, Float64),
  value_q     AggregateFunction(quantiles(0.5, 0.95, 0.99), Float64)
)
ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day, build_id, map_id, platform, source, has_sample, metric);

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

-- Events stored before the views existed, each once (FINAL collapses redelivered duplicates);
-- their batches enter rollup_batches through its view, so a late redelivery is not added again.
INSERT INTO rollup_input (project_id, event_id, event_name, timestamp_us, timestamp, session_id, player_id,
       has_position, position_x, position_y, position_z, map_id, fps, frame_time_ms, memory_used_bytes, gpu_time_ms,
       attributes.key, attributes.value, metrics.key, metrics.value, source, build_id, platform, engine_version,
       camera_yaw, camera_pitch, game_thread_ms, render_thread_ms, sdk_version, received_at)
SELECT project_id, event_id, event_name, timestamp_us, timestamp, session_id, player_id, has_position,
       position_x, position_y, position_z, map_id, fps, frame_time_ms, memory_used_bytes, gpu_time_ms,
       attributes.key, attributes.value, metrics.key, metrics.value, source, build_id, platform,
       engine_version, camera_yaw, camera_pitch, game_thread_ms, render_thread_ms, sdk_version, received_at
  FROM events FINAL;
