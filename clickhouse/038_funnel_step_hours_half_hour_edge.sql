-- funnel_step_hours (034) gains a third row per key, edge 2: the hour's first event at or after
-- its half hour (minute 30 on), where the hour has one. funnels.query.ts's lower bound chains it
-- like the first and last events: it is a real event, so every chain through it is real.
--
-- Why: an hour's first and last events miss a chain that runs through its middle. When a step's
-- first event comes before the previous step's first and its last after the next step's last,
-- no stored time of it lies between them, and the entity is left open, to be counted exactly
-- from funnel_steps, whose rows are read whole once a few hundred keys are listed. On the bench's
-- 100 M events (docs/performance.md, twenty-second run) the by-session bounds left 6,071 of
-- 250,000 sessions open, whose exact count took ~210 ms; with this edge 13 (~50 ms), for ~75 ms
-- more in the bounds (funnels.query.ts groups only the rows a bound reads). The by-player bounds
-- left none open instead of 28.
--
-- A view of its own beside 034's, on the same events, so 034's view is neither dropped nor
-- replaced while events arrive. The fill below covers the events already stored; an event both
-- fed and filled changes no first time (ReplacingMergeTree keeps the largest `keep`, 4294967295
-- − time, as for edge 0), so the fill may run again, and redelivered events change nothing.
-- Erasure (player_id in the key) and expiry (034's partitions, 035's TTL) take these rows with
-- the others.
CREATE MATERIALIZED VIEW IF NOT EXISTS funnel_step_half_hours_mv TO funnel_step_hours AS
SELECT project_id, retention_days, event_name_hash, cityHash64(player_id) AS player_hash, player_id,
       cityHash64(session_id) AS session_hash, toStartOfHour(timestamp) AS hour, platform, build_id, source,
       toUInt8(2) AS edge, min(timestamp) AS seen, toUInt32(4294967295 - toUInt32(min(timestamp))) AS keep
  FROM events
 WHERE (player_id != '' OR session_id != '') AND toMinute(timestamp) >= 30
 GROUP BY project_id, retention_days, event_name_hash, player_hash, player_id, session_hash, hour, platform, build_id, source;

INSERT INTO funnel_step_hours
SELECT project_id, retention_days, event_name_hash, player_hash, player_id, session_hash, toStartOfHour(timestamp) AS hour,
       platform, build_id, source, toUInt8(2) AS edge, min(timestamp) AS seen,
       toUInt32(4294967295 - toUInt32(min(timestamp))) AS keep
  FROM funnel_steps
 WHERE toMinute(timestamp) >= 30
 GROUP BY project_id, retention_days, event_name_hash, player_hash, player_id, session_hash, hour, platform, build_id, source
SETTINGS max_bytes_before_external_group_by = 2000000000;
