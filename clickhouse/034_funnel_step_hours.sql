-- The funnels' bounds: per project, step name (its hash), player, session, hour and dimensions,
-- the first and last time the event happened (funnels.query.ts reads them).
--
-- Why: an exact funnel runs windowFunnel over every step event of its range (funnel_steps,
-- 027/029), and on 18.16 that stays above 500 ms at 100 M events (docs/performance.md). These
-- rows, ~2 per 10 events at the bench's density, bound each player's level from both sides:
--  - below: windowFunnel over each row's first and last event, a subset of the real events, so
--    every chain it finds is real;
--  - above: windowFunnel over (hour, step) marks, steps in order inside an hour and the window
--    widened to whole hours, so every real chain has a counterpart there.
-- Where the two meet the level is known; the other players (about one per thousand on the
-- bench's data) are counted exactly from funnel_steps.
--
-- Two rows per key, its first and its last event (`edge` 0 and 1), as plain times: a
-- ReplacingMergeTree keeps the largest `keep`, the earliest time for a first and the latest for a
-- last. Aggregate-function states (min/max) would say the same, but reading them back costs a
-- state per row: measured on 60 M bench events, the bounds query took 225 ms on plain rows
-- against 318 on states.
--
-- Redelivery: a first or last time is idempotent, so an event stored twice (at-least-once
-- delivery, or the fill in 036 meeting the view) changes no bound; no ledger is needed. Rows
-- collapse on merge; until then every row still holds a real event's time.
-- Erasure: player_id is kept (and in the key, so two players sharing a hash never share a row);
-- libs/analytics PLAYER_TABLES. Raw data: the same partition layout as funnel_steps, expired with
-- it (the retention worker on 18.16, 035's TTL on modern servers).
CREATE TABLE IF NOT EXISTS funnel_step_hours (
  project_id      UUID,
  retention_days  UInt16,
  event_name_hash UInt64,
  player_hash     UInt64,
  player_id       String,
  session_hash    UInt64,
  hour            DateTime,
  platform        String,
  build_id        String,
  source          Enum8('unspecified' = 0, 'player' = 1, 'automated' = 2),
  -- 0: the hour's first event of the key, 1: its last
  edge            UInt8,
  seen            DateTime,
  -- What the merge keeps the largest of: 4294967295 − time for a first, the time for a last.
  keep            UInt32
)
ENGINE = ReplacingMergeTree(keep)
PARTITION BY (retention_days, toMonday(hour))
ORDER BY (project_id, event_name_hash, player_hash, player_id, session_hash, hour, platform, build_id, source, edge);
