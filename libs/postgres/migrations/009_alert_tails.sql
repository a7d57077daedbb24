-- Tails and hitches as alert metrics, and history entries that link the heatmap (FrameDeck
-- issue #18, items 3 and 6). Frozen once applied: change the schema in a new numbered file.
-- The allowed values below mirror libs/alerts/src/alert-rule.model.ts.

-- Limits for the p99 frame time (ms) and the hitch shares: the percentage (0–100) of a cell's
-- frame samples over 33.3 ms and over 50 ms. All three are lower-is-better. The column defaults
-- are DEFAULT_THRESHOLD_PROFILE's tail limits (libs/alerts): existing profiles get them here,
-- and the default profile a new project gets (migration 004's trigger) takes them too.
ALTER TABLE threshold_profiles
  ADD COLUMN IF NOT EXISTS p99_frame_time_good_ms        double precision NOT NULL DEFAULT 33.3,
  ADD COLUMN IF NOT EXISTS p99_frame_time_warn_ms        double precision NOT NULL DEFAULT 50,
  ADD COLUMN IF NOT EXISTS hitch_share_33ms_good_percent double precision NOT NULL DEFAULT 1,
  ADD COLUMN IF NOT EXISTS hitch_share_33ms_warn_percent double precision NOT NULL DEFAULT 5,
  ADD COLUMN IF NOT EXISTS hitch_share_50ms_good_percent double precision NOT NULL DEFAULT 0.5,
  ADD COLUMN IF NOT EXISTS hitch_share_50ms_warn_percent double precision NOT NULL DEFAULT 2;

ALTER TABLE threshold_profiles DROP CONSTRAINT IF EXISTS threshold_profiles_tail_limits_check;
ALTER TABLE threshold_profiles ADD CONSTRAINT threshold_profiles_tail_limits_check CHECK (
  p99_frame_time_good_ms <= p99_frame_time_warn_ms
  AND hitch_share_33ms_good_percent <= hitch_share_33ms_warn_percent
  AND hitch_share_50ms_good_percent <= hitch_share_50ms_warn_percent
);

-- Migration 004 declared the metric check inline (PostgreSQL names it alert_rules_metric_check).
ALTER TABLE alert_rules DROP CONSTRAINT IF EXISTS alert_rules_metric_check;
ALTER TABLE alert_rules ADD CONSTRAINT alert_rules_metric_check CHECK (
  metric IN ('fps', 'frame_time', 'memory', 'gpu_time', 'p99_frame_time', 'hitch_share_33ms', 'hitch_share_50ms')
);

-- The dashboard's heatmap at the evaluated map, cell size, window and metric (the notification's
-- dashboardUrl); NULL for entries recorded before. Since this migration each of worst_cells also
-- carries its own dashboardUrl, focused on that cell.
ALTER TABLE alert_evaluations ADD COLUMN IF NOT EXISTS dashboard_url text;
