-- The days on which each player of a project was active: one row per (project, player, UTC day).
-- Retention reads it instead of the events: ~6 rows per player-day's thousands of events, and
-- first-seen is simply min(day) per player.
--
-- Why this rollup is exact where a count rollup would not be:
--  * duplicates (Kafka redelivery) add the same (project, player, day) again: a set does not
--    change, readers GROUP BY, and ReplacingMergeTree collapses them on merge;
--  * erasure removes a player's rows here with the same mutation as in events (it is keyed by
--    player_id; libs/analytics PLAYER_TABLES lists both tables).
-- A per-cell or per-day count rollup would count redelivered duplicates for good, and its rows
-- mix players, so erasure could not remove one player's share: we keep none.
CREATE TABLE IF NOT EXISTS player_days (
  project_id UUID,
  player_id  String,
  day        Date
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, player_id, day);

CREATE MATERIALIZED VIEW IF NOT EXISTS player_days_mv TO player_days AS
SELECT DISTINCT project_id, player_id, toDate(timestamp) AS day
  FROM events
 WHERE player_id != '';

-- Events stored before the view existed. Rows that arrived while this ran may be added twice:
-- harmless for a set.
INSERT INTO player_days
SELECT DISTINCT project_id, player_id, toDate(timestamp) AS day
  FROM events
 WHERE player_id != '';
