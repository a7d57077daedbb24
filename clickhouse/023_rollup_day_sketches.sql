-- Per project and UTC day: the dashboard's distinct players and sessions as uniqCombined
-- sketches of 2^13 cells, the precision of the unique-player insights (022).
--
-- Why: rollup_project_days (016) keeps them at the default 2^17 cells. A 100 M-event project's
-- days hold ~7,700 players and ~8,400 sessions: the sessions are 96 KiB sketches and the
-- players an exact set of up to 8,192 members, so a 30-day dashboard cost 3× a 10 M project's
-- (API p95 22.6 → 67.2 ms, docs/performance.md). At 2^13 cells every day of either project is
-- a 6 KiB sketch: measured in direct SQL, the daily series 7 and 8 ms, against 20 and 50 ms.
-- Error bound as 022's (standard error ≈ 1.15 %), and the dashboard's daily players now equal
-- the insights' unique players by day: the same function and precision over the same members.
--
-- Exactly once is not needed: a sketch is a set, so this view reads `events` (a redelivered
-- event adds a member the day already has). rollup_project_days keeps the exact event counts.
-- Kept 13 months like every rollup; it holds hashes, not ids (erasure: docs/rollups.md).
-- Granules of 64 rows, not 8,192 (SETTINGS): ClickHouse reads every state of a granule it touches, and
-- a project's 30 days share a granule of 8,192 rows with other projects' states. Measured on
-- rollup_project_hours (the same kind of states): 24 hours' distinct counts took 50 ms with
-- 8,192-row granules (1,457 rows of two projects read) and 7 ms with 64.
CREATE TABLE IF NOT EXISTS rollup_day_sketches (
  project_id UUID,
  day        Date,
  players    AggregateFunction(uniqCombinedIf(13), String, UInt8),
  sessions   AggregateFunction(uniqCombined(13), String),
  -- Only for days whose raw events had expired when this table was filled: their sessions at
  -- 016's precision (no stored set of sessions can be sketched again). A day has this or
  -- `sessions`, never both: the view writes it empty.
  sessions_before_sketches AggregateFunction(uniqCombined, String)
)
ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day)
SETTINGS index_granularity = 64;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_day_sketches_mv TO rollup_day_sketches AS
SELECT project_id, toDate(timestamp) AS day,
       uniqCombinedIfState(13)(player_id, player_id != '') AS players,
       uniqCombinedState(13)(session_id) AS sessions,
       -- An empty state (a condition no row meets): 18.16 wants every column of the target.
       uniqCombinedStateIf(session_id, 0) AS sessions_before_sketches
  FROM events
 GROUP BY project_id, day;

-- The days stored before the view existed (after it, so no event falls between; a member both
-- add is the same member of a set). Players from the player_days set, which is kept as long
-- as this table: every day, even where the raw events have expired.
INSERT INTO rollup_day_sketches (project_id, day, players)
SELECT project_id, day, uniqCombinedIfState(13)(player_id, player_id != '')
  FROM player_days
 GROUP BY project_id, day;

-- Sessions from the raw events that are still stored.
INSERT INTO rollup_day_sketches (project_id, day, sessions)
SELECT project_id, toDate(timestamp) AS day, uniqCombinedState(13)(session_id)
  FROM events
 GROUP BY project_id, day;

-- Sessions of the days whose raw events are gone: 016's states, as they are.
INSERT INTO rollup_day_sketches (project_id, day, sessions_before_sketches)
SELECT project_id, day, uniqCombinedMergeState(sessions)
  FROM rollup_project_days
 WHERE (project_id, day) GLOBAL NOT IN (SELECT DISTINCT project_id, toDate(timestamp) FROM events)
 GROUP BY project_id, day;

-- rollup_project_days keeps the exact event counts (and its insert mark, 015/021): its
-- players and sessions are read no more, and its view stops computing them.
DROP TABLE IF EXISTS rollup_project_days_mv;

-- framedeck:when-column-exists rollup_project_days players
ALTER TABLE rollup_project_days DROP COLUMN players;

-- framedeck:when-column-exists rollup_project_days sessions
ALTER TABLE rollup_project_days DROP COLUMN sessions;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_project_days_mv TO rollup_project_days AS
SELECT project_id, toDate(timestamp) AS day,
       countState() AS events,
       sumState(cityHash64(toString(event_id))) AS insert_mark
  FROM rollup_input
 GROUP BY project_id, day;
