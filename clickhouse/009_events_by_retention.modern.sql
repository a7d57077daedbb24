-- The events table re-laid out for per-project retention (FrameDeck issue #15), created beside
-- `events`; 010 copies the rows, 011 swaps the names, 012 re-attaches the views, 013 drops the
-- old table.
--
-- retention_days: how many days the project keeps raw events, written on every row by the
-- consumer from the batch envelope (the gateway reads the project's setting). It leads
-- the partition key, as Snuba does: PARTITION BY (retention_days, toMonday(timestamp)) holds
-- only projects with the same retention, so a week expires as one partition for all of them
-- (dropped whole: no other project's part is rewritten), and a project with another retention
-- never shares a part with it. The values are a short list (libs/postgres RETENTION_DAYS_CHOICES)
-- so the number of partitions stays bounded: choices × weeks (≤ 8 × 105 for two years).
-- NOTE: not a DEFAULT looking the project up (joinGet): an 18.16 server cannot load such a
-- table at start-up (joinGet has no database there: "Default database is not selected").
-- A changed setting applies to events ingested afterwards; rows already stored keep the
-- retention they were written with (readers cut at the project's current window, see
-- libs/analytics data-window).
--
-- TTL: the engine expires each row retention_days after its timestamp. ttl_only_drop_parts: a
-- part goes only when all of its rows expired, so expiry drops whole parts and never rewrites
-- one (a part holds one retention and one week). The retention worker's partition drops run
-- here too and only anticipate the TTL.
CREATE TABLE IF NOT EXISTS events_by_retention (
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
  received_at        DateTime,
  -- Written by the consumer from the batch envelope (the gateway reads the project's setting);
  -- 90 for rows written before it did.
  retention_days     UInt16 DEFAULT 90,
  -- Index of the first event of the Kafka message the row came in (a batch too large for one
  -- message travels in parts): with the batch id, what the rollup ledger records (clickhouse/007).
  batch_first_index  UInt32 DEFAULT 0,
  event_name_hash    UInt64 MATERIALIZED cityHash64(event_name),
  map_id_hash        UInt64 MATERIALIZED cityHash64(map_id),
  platform_hash      UInt64 MATERIALIZED cityHash64(platform),
  build_id_hash      UInt64 MATERIALIZED cityHash64(build_id)
)
ENGINE = ReplacingMergeTree()
PARTITION BY (retention_days, toMonday(timestamp))
ORDER BY (project_id, toDate(timestamp), map_id, event_name, timestamp_us, event_id)
TTL timestamp + toIntervalDay(retention_days)
SETTINGS ttl_only_drop_parts = 1;
