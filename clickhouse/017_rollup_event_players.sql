-- Per project, UTC day and event name: a distinct-count sketch of the players (uniqCombined
-- with 2^14 HyperLogLog cells), for unique-player insights without a map, platform, build or
-- source filter (grouped by day, week, month or event name, optionally one event name).
--
-- Why: those insights read the player_activity set (004), one row per player, day and
-- dimension combination, so their cost grew with players: measured at 100 M events, unique
-- players by event over 90 days took 155 ms (27.5 ms at 10 M, ten times fewer players). Here a
-- 90-day view merges at most days × names states, each at most 2^14 × 6 bits (12 KiB) however
-- many players a day has. uniqCombined's default precision (2^17 cells, 96 KiB a state) made
-- such merges slower than the set (205 ms at 100 M); 2^14 is the largest whose merges stayed
-- flat here (docs/performance.md).
--
-- Error bound (docs/analytics.md): exact up to 2^10 distinct players in a group (a hash set
-- of 32-bit hashes), then HyperLogLog with a standard error of 1.04 / √16384 ≈ 0.8 %. The
-- insights query over events and over player_activity uses the same function and precision,
-- and merging states is the union of the sets' registers, so every source gives the answer
-- one pass over the events gives (tests/analytics/insights.query.test.ts holds them equal
-- beyond 2^10 players).
--
-- Exactly once is not needed: a sketch is a set, so a redelivered event adds a member it
-- already has. That is why this view reads `events` (like the sets) and not `rollup_input`.
-- Erasure: the sketch holds hashes, not ids (the same nuance as rollup_project_days, see
-- docs/rollups.md). Kept 13 months like every rollup (libs/analytics data-retention).
CREATE TABLE IF NOT EXISTS rollup_event_players (
  project_id UUID,
  day        Date,
  event_name String,
  players    AggregateFunction(uniqCombinedIf(14), String, UInt8)
)
ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day, event_name);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_event_players_mv TO rollup_event_players AS
SELECT project_id, toDate(timestamp) AS day, event_name,
       uniqCombinedIfState(14)(player_id, player_id != '') AS players
  FROM events
 GROUP BY project_id, day, event_name;

-- Days stored before the view existed, from the set (its members per day and name are the
-- players the events name; a member the view also added is the same member of a set).
INSERT INTO rollup_event_players
SELECT project_id, day, event_name, uniqCombinedIfState(14)(player_id, player_id != '')
  FROM player_activity
 GROUP BY project_id, day, event_name;
