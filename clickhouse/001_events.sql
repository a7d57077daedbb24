-- One row per accepted telemetry event (spec: GameTelemetryEvent).
-- Written by the events consumer in RowBinary, column order as listed here.
--
-- ENGINE ReplacingMergeTree: delivery from Kafka is at-least-once; a redelivered batch yields
-- rows with the same sorting key (which ends in the deterministic event_id) and merges
-- collapse them. Queries that must be exact read with FINAL.
--
-- PARTITION BY month: analytics look back at most 90 days, so at most 4 partitions are read;
-- erasure mutations and retention drops work per partition.
--
-- ORDER BY (project_id, toDate(timestamp), map_id, event_name, timestamp_us, event_id):
--  * every API query filters one project and a trailing day range: the first two columns
--    prune both (heatmaps, insights, dashboard, builds);
--  * within a day the few map_ids let the primary index skip other maps' granules for
--    heatmaps (ClickHouse's generic exclusion search works on the third key column because
--    the columns before it have few distinct values per range);
--  * event_name next serves Events-mode heatmaps and funnels, which filter by name;
--  * event_id last makes the key unique per event, which is what deduplication keys on.
-- Per-player retention scans project+date ranges and groups by player_id; a sorting key led
-- by player would hurt every other query more than it helps this one.
CREATE TABLE IF NOT EXISTS events (
  project_id         UUID,
  event_id           UUID,
  event_name         String,
  timestamp_us       Int64,
  -- Second-precision copy of timestamp_us (18.16 has no DateTime64) for date functions.
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
  -- Field presence is kept: NULL = not sent, 0 = facing North / level.
  camera_yaw         Nullable(Float32),
  camera_pitch       Nullable(Float32),
  game_thread_ms     Float32,
  render_thread_ms   Float32,
  sdk_version        String,
  received_at        DateTime
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(timestamp)
ORDER BY (project_id, toDate(timestamp), map_id, event_name, timestamp_us, event_id);
