-- Funnels' copy of the events (018) sorted by the event name's 64-bit hash instead of the name:
-- (project, event_name_hash, player, time). 029 fills it from funnel_steps and gives it that name.
--
-- Why: a funnel reads every step event in its range (windowFunnel needs each player's events in
-- time order; no per-day aggregate answers it), so its cost is a constant per step event, and
-- string work was a third of it: on 18.16 the name filter (IN) and each step's condition compared
-- the name per row (memcmp was 10 % of a profiled run's samples against 4 % for windowFunnel's own
-- adds). Here the range, the filter and the step conditions are integer comparisons with
-- cityHash64 of the step names (libs/analytics funnels.query.ts). Measured: docs/performance.md.
--
-- The name itself is not kept: nothing reads it here (erasure goes by player_id, expiry by
-- partition). Two of a project's event names sharing a 64-bit hash (~n²/2^65, 10^-13 for 1,000
-- names) would count as one step.
--
-- Same rows, partition layout and collapsing as 018: a redelivered event has the same sorting
-- key, ending in event_id, and ReplacingMergeTree collapses it on merge.
CREATE TABLE IF NOT EXISTS funnel_steps_by_name_hash (
  project_id      UUID,
  event_id        UUID,
  retention_days  UInt16,
  timestamp       DateTime,
  event_name_hash UInt64,
  player_id       String,
  session_id      String,
  platform        String,
  build_id        String,
  source          Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2),
  player_hash     UInt64,
  session_hash    UInt64
)
ENGINE = ReplacingMergeTree()
PARTITION BY (retention_days, toMonday(timestamp))
ORDER BY (project_id, event_name_hash, player_hash, timestamp, event_id);
