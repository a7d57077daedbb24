-- Fills the re-keyed funnels' table (027) and gives it the name funnel_steps, so every reader,
-- erasure (PLAYER_TABLES) and expiry (RAW_EVENT_TABLES) keep their table name.
--
-- Order, so that no event is missed while the copy runs: the new table's own view feeds it first;
-- then the old view goes (from here on every new event reaches only the new table); then the old
-- rows are copied (an event both copied and fed collapses like a redelivered one: same sorting
-- key, ending in event_id). Only between dropping the temporary view and creating the final one
-- (two DDL statements) would an insert miss the table, which is why this, as 012, runs before the
-- consumer starts (npm start migrates first). The view is created again under its own name after
-- the RENAME: 18.16 keeps a view bound to a name, 26.x to a table (measured for 012).
--
-- Re-runnable: each step is IF [NOT] EXISTS or guarded; a copy that stopped half-way and runs
-- again adds rows a second time, which collapse as above.
-- framedeck:when-table-exists funnel_steps_by_name_hash
CREATE MATERIALIZED VIEW IF NOT EXISTS funnel_steps_by_name_hash_mv TO funnel_steps_by_name_hash AS
SELECT project_id, event_id, retention_days, timestamp, event_name_hash, player_id, session_id, platform, build_id, source,
       cityHash64(player_id) AS player_hash, cityHash64(session_id) AS session_hash
  FROM events
 WHERE player_id != '' OR session_id != '';

DROP TABLE IF EXISTS funnel_steps_mv;

-- framedeck:when-table-exists funnel_steps_by_name_hash
INSERT INTO funnel_steps_by_name_hash (project_id, event_id, retention_days, timestamp, event_name_hash, player_id, session_id, platform, build_id, source, player_hash, session_hash)
SELECT project_id, event_id, retention_days, timestamp, cityHash64(event_name) AS event_name_hash, player_id, session_id,
       platform, build_id, source, player_hash, session_hash
  FROM funnel_steps;

DROP TABLE IF EXISTS funnel_steps_by_name_hash_mv;

-- framedeck:when-table-exists funnel_steps_by_name_hash
RENAME TABLE funnel_steps TO funnel_steps_by_event_name, funnel_steps_by_name_hash TO funnel_steps;

CREATE MATERIALIZED VIEW IF NOT EXISTS funnel_steps_mv TO funnel_steps AS
SELECT project_id, event_id, retention_days, timestamp, event_name_hash, player_id, session_id, platform, build_id, source,
       cityHash64(player_id) AS player_hash, cityHash64(session_id) AS session_hash
  FROM events
 WHERE player_id != '' OR session_id != '';

-- 018's table: every row is in funnel_steps now.
DROP TABLE IF EXISTS funnel_steps_by_event_name;
