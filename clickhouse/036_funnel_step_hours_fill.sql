-- funnel_step_hours (034) fed from the events like funnel_steps (same rows: a player or a
-- session), then filled from funnel_steps. The view goes first, so no event is missed while the
-- fill runs; an event both fed and filled changes no first or last time. Each event is joined to
-- both edges before grouping: 18.16 runs a view's SELECT on the inserted block only at its
-- outermost level, so a view cannot group in a subquery and split the groups after. The fill
-- groups a whole table: past 2 GB its aggregation spills to disk rather than failing on a large
-- deployment.
CREATE MATERIALIZED VIEW IF NOT EXISTS funnel_step_hours_mv TO funnel_step_hours AS
SELECT project_id, retention_days, event_name_hash, cityHash64(player_id) AS player_hash, player_id,
       cityHash64(session_id) AS session_hash, toStartOfHour(timestamp) AS hour, platform, build_id, source, edge,
       if(edge = 0, min(timestamp), max(timestamp)) AS seen,
       toUInt32(if(edge = 0, 4294967295 - toUInt32(min(timestamp)), toUInt32(max(timestamp)))) AS keep
  FROM events
 ARRAY JOIN [0, 1] AS edge
 WHERE player_id != '' OR session_id != ''
 GROUP BY project_id, retention_days, event_name_hash, player_hash, player_id, session_hash, hour, platform, build_id, source, edge;

INSERT INTO funnel_step_hours
SELECT project_id, retention_days, event_name_hash, player_hash, player_id, session_hash, toStartOfHour(timestamp) AS hour,
       platform, build_id, source, edge,
       if(edge = 0, min(timestamp), max(timestamp)) AS seen,
       toUInt32(if(edge = 0, 4294967295 - toUInt32(min(timestamp)), toUInt32(max(timestamp)))) AS keep
  FROM funnel_steps
 ARRAY JOIN [0, 1] AS edge
 GROUP BY project_id, retention_days, event_name_hash, player_hash, player_id, session_hash, hour, platform, build_id, source, edge
SETTINGS max_bytes_before_external_group_by = 2000000000;
