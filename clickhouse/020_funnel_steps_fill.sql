-- funnel_steps (018) fed from the events, after 019 gave it its TTL on modern servers.
CREATE MATERIALIZED VIEW IF NOT EXISTS funnel_steps_mv TO funnel_steps AS
SELECT project_id, event_id, retention_days, timestamp, event_name, player_id, session_id, platform, build_id, source,
       cityHash64(player_id) AS player_hash, cityHash64(session_id) AS session_hash
  FROM events
 WHERE player_id != '' OR session_id != '';

-- Events stored before the view existed (an event the view also copied is collapsed like a redelivered one).
INSERT INTO funnel_steps
SELECT project_id, event_id, retention_days, timestamp, event_name, player_id, session_id, platform, build_id, source,
       cityHash64(player_id) AS player_hash, cityHash64(session_id) AS session_hash
  FROM events
 WHERE player_id != '' OR session_id != '';
