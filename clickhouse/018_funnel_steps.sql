-- Funnels' own copy of the events they read: per event of a player or session, its name, time,
-- entity and dimensions, sorted by (project, event name, player, time).
--
-- Why: a funnel needs each player's step events in time order (windowFunnel), so no per-day
-- aggregate answers it and its cost grows with the step events in range. From `events` (sorted
-- by day, map and name; ~60 bytes a row) a 3-step, 30-day funnel at 100 M events read the
-- player ids as strings and hashed them, and each row's player state lay anywhere in memory
-- (measured 1.15 s, docs/performance.md). Here a step's rows come player after player, so a
-- player's state is hit by a run of rows, and the aggregation groups on a number.
--
-- Exact: the same events as `events`, collapsed the same way. A redelivered event is a row
-- with the same event id, which ReplacingMergeTree collapses on merge here as in `events` (until
-- then both hold it twice; it changes a funnel only if one event name is two of its steps).
-- Erasure deletes a player's rows with the events' mutation (player_id is kept for it;
-- libs/analytics PLAYER_TABLES). Raw data: it expires with the project's raw events, by the same partition
-- layout (retention days, week), the retention worker on 18.16 and a TTL on modern servers (019).
-- Filled by 020, once the TTL is in place (a TTL added to a filled table rewrites its parts).
CREATE TABLE IF NOT EXISTS funnel_steps (
  project_id     UUID,
  event_id       UUID,
  retention_days UInt16,
  timestamp      DateTime,
  event_name     String,
  player_id      String,
  session_id     String,
  platform       String,
  build_id       String,
  source         Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2),
  -- cityHash64 of the ids, what funnels group on (written by 020's view: 18.16 does not compute
  -- a MATERIALIZED column of a view's target).
  player_hash    UInt64,
  session_hash   UInt64
)
ENGINE = ReplacingMergeTree()
PARTITION BY (retention_days, toMonday(timestamp))
ORDER BY (project_id, event_name, player_hash, timestamp, event_id);
