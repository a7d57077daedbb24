-- Per project and UTC hour: the project status's distinct players and sessions (the last 24 whole
-- hours), moved out of rollup_project_hours (007) into a table read in granules of 64 rows.
--
-- Why: ClickHouse reads every state of each granule a query touches. rollup_project_hours has
-- granules of 8,192 rows, so the status's 24 hourly rows came with the states of every other
-- hour and project in their granule: on the bench data set (two projects, 1,457 hourly rows)
-- the two distinct counts took ~55 ms, at 10 M events as at 100 M, and the status ~90 ms; on a
-- server holding many projects a granule is 8,192 other rows. In granules of 64 rows: ~7 ms.
-- The states are copied as they are (the default 2^17 cells), so the status's figures do not
-- change; the table's states are the same functions' over the same members.
--
-- Exactly once is not needed: a sketch is a set, so the view reads `events` (a redelivered event
-- adds a member the hour already has). rollup_project_hours keeps the event counts and the last
-- event, exact once per batch. Kept 13 months like every rollup; it holds hashes, not ids.
CREATE TABLE IF NOT EXISTS rollup_hour_sketches (
  project_id UUID,
  hour       DateTime,
  players    AggregateFunction(uniqCombinedIf, String, UInt8),
  sessions   AggregateFunction(uniqCombined, String)
)
ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(hour)
ORDER BY (project_id, hour)
SETTINGS index_granularity = 64;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_hour_sketches_mv TO rollup_hour_sketches AS
SELECT project_id, toStartOfHour(timestamp) AS hour,
       uniqCombinedIfState(player_id, player_id != '') AS players,
       uniqCombinedState(session_id) AS sessions
  FROM events
 GROUP BY project_id, hour;

-- Every stored hour, from rollup_project_hours' states (after the view exists, so no event falls
-- between; a member both add is the same member of a set).
INSERT INTO rollup_hour_sketches
SELECT project_id, hour, uniqCombinedIfMergeState(players), uniqCombinedMergeState(sessions)
  FROM rollup_project_hours
 GROUP BY project_id, hour;

-- rollup_project_hours keeps the counts, the last event and the insert mark (015): its view
-- stops computing the distinct counts.
DROP TABLE IF EXISTS rollup_project_hours_mv;

-- framedeck:when-column-exists rollup_project_hours players
ALTER TABLE rollup_project_hours DROP COLUMN players;

-- framedeck:when-column-exists rollup_project_hours sessions
ALTER TABLE rollup_project_hours DROP COLUMN sessions;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_project_hours_mv TO rollup_project_hours AS
SELECT project_id, toStartOfHour(timestamp) AS hour,
       countState() AS events,
       maxState(timestamp_us) AS last_event_us,
       sumWithOverflow(toUInt32(cityHash64(toString(event_id)))) AS insert_mark
  FROM rollup_input
 GROUP BY project_id, hour;
