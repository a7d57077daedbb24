-- Alerts: threshold profiles, rules, notification channels, evaluation history, the
-- evaluator's per-rule state and lease, and the notification outbox with its deliveries.
-- Frozen once applied: change the schema in a new numbered file.
-- The allowed values below mirror libs/alerts/src/alert-rule.model.ts.

-- Per-metric limits. "good"/"warn" per metric; fps is higher-is-better, the others
-- lower-is-better (see libs/alerts threshold-profile.model.ts for what a level means).
CREATE TABLE IF NOT EXISTS threshold_profiles (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id         uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name               text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  is_default         boolean NOT NULL DEFAULT false,
  fps_good           double precision NOT NULL,
  fps_warn           double precision NOT NULL,
  frame_time_good_ms double precision NOT NULL,
  frame_time_warn_ms double precision NOT NULL,
  gpu_time_good_ms   double precision NOT NULL,
  gpu_time_warn_ms   double precision NOT NULL,
  memory_good_mb     double precision NOT NULL,
  memory_warn_mb     double precision NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, name),
  -- Target of the rules' composite foreign key: a rule can only use its own project's profiles.
  UNIQUE (project_id, id),
  CHECK (fps_good >= fps_warn AND frame_time_good_ms <= frame_time_warn_ms
         AND gpu_time_good_ms <= gpu_time_warn_ms AND memory_good_mb <= memory_warn_mb)
);
CREATE UNIQUE INDEX IF NOT EXISTS threshold_profiles_one_default_idx ON threshold_profiles (project_id) WHERE is_default;

-- Every project has a default profile: new projects get it from this trigger (so no code path
-- that creates projects can forget it), existing ones from the INSERT below.
-- NOTE: keep the values in step with DEFAULT_THRESHOLD_PROFILE in libs/alerts.
CREATE OR REPLACE FUNCTION insert_default_threshold_profile(p_project_id uuid) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO threshold_profiles (project_id, name, is_default, fps_good, fps_warn, frame_time_good_ms,
    frame_time_warn_ms, gpu_time_good_ms, gpu_time_warn_ms, memory_good_mb, memory_warn_mb)
  VALUES (p_project_id, 'Default', true, 60, 30, 16.7, 33.3, 14, 28, 4096, 6144)
  ON CONFLICT DO NOTHING;
$$;

CREATE OR REPLACE FUNCTION projects_seed_threshold_profile() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM insert_default_threshold_profile(NEW.id);
  RETURN NULL;
END;
$$;

CREATE OR REPLACE TRIGGER projects_seed_threshold_profile
  AFTER INSERT ON projects FOR EACH ROW EXECUTE FUNCTION projects_seed_threshold_profile();

SELECT insert_default_threshold_profile(id) FROM projects;

-- Where notifications go. The webhook secret is kept in clear because signing needs it
-- (HMAC-SHA256); it is returned once, at creation, and never listed.
CREATE TABLE IF NOT EXISTS notification_channels (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  type       text NOT NULL CHECK (type IN ('webhook', 'slack')),
  url        text NOT NULL CHECK (length(url) <= 2048),
  secret     text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, id),
  CHECK ((type = 'webhook') = (secret IS NOT NULL))
);
CREATE INDEX IF NOT EXISTS notification_channels_project_idx ON notification_channels (project_id, created_at);

CREATE TABLE IF NOT EXISTS alert_rules (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id           uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name                 text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- NOTE: no foreign key to maps: deleting a map removes only its record (spec), and its
  -- rules stay listed (mapName null) but are no longer evaluated.
  map_id               uuid NOT NULL,
  threshold_profile_id uuid NOT NULL,
  metric               text NOT NULL CHECK (metric IN ('fps', 'frame_time', 'memory', 'gpu_time')),
  threshold_level      text NOT NULL CHECK (threshold_level IN ('warn', 'good')),
  fail_percentage      double precision NOT NULL CHECK (fail_percentage >= 1 AND fail_percentage <= 100),
  evaluation_days      integer NOT NULL CHECK (evaluation_days IN (1, 7, 14, 30)),
  cell_size            integer NOT NULL CHECK (cell_size IN (5, 10, 25, 50)),
  cooldown_minutes     integer NOT NULL CHECK (cooldown_minutes BETWEEN 0 AND 10080),
  is_active            boolean NOT NULL DEFAULT true,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, id),
  FOREIGN KEY (project_id, threshold_profile_id) REFERENCES threshold_profiles (project_id, id)
);
CREATE INDEX IF NOT EXISTS alert_rules_project_idx ON alert_rules (project_id, created_at DESC);

-- Composite keys carry project_id so a rule can only name its own project's channels.
CREATE TABLE IF NOT EXISTS alert_rule_channels (
  project_id uuid NOT NULL,
  rule_id    uuid NOT NULL,
  channel_id uuid NOT NULL,
  PRIMARY KEY (rule_id, channel_id),
  FOREIGN KEY (project_id, rule_id) REFERENCES alert_rules (project_id, id) ON DELETE CASCADE,
  FOREIGN KEY (project_id, channel_id) REFERENCES notification_channels (project_id, id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS alert_rule_channels_channel_idx ON alert_rule_channels (channel_id);

-- One row per rule: when it is due, who holds it (lease), and what was last decided.
-- An evaluator claims due rows with FOR UPDATE SKIP LOCKED and writes a fresh lease_token;
-- it may record a result only while its token is still the row's token (fencing), so two
-- instances never both record (and notify) one evaluation, and a crashed instance's lease
-- simply expires.
CREATE TABLE IF NOT EXISTS alert_rule_state (
  rule_id            uuid PRIMARY KEY REFERENCES alert_rules (id) ON DELETE CASCADE,
  next_evaluation_at timestamptz NOT NULL DEFAULT now(),
  lease_token        uuid,
  lease_expires_at   timestamptz,
  last_status        text CHECK (last_status IN ('triggered', 'resolved')),
  last_evaluated_at  timestamptz,
  -- What receivers were last told, and when (transitions and cooldown are measured on these).
  notified_status    text CHECK (notified_status IN ('triggered', 'resolved')),
  notified_at        timestamptz
);
CREATE INDEX IF NOT EXISTS alert_rule_state_due_idx ON alert_rule_state (next_evaluation_at);

-- History: one row per evaluation.
CREATE TABLE IF NOT EXISTS alert_evaluations (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id           uuid NOT NULL,
  rule_id              uuid NOT NULL,
  evaluated_at         timestamptz NOT NULL,
  status               text NOT NULL CHECK (status IN ('triggered', 'resolved')),
  metric               text NOT NULL,
  threshold_level      text NOT NULL,
  threshold            double precision NOT NULL,
  fail_percentage      double precision NOT NULL,
  failing_cells        integer NOT NULL,
  total_cells          integer NOT NULL,
  failing_percentage   double precision NOT NULL,
  worst_cells          jsonb NOT NULL,
  -- queued: a notification was recorded; cooldown: a transition was held back; null: no news.
  notification_outcome text CHECK (notification_outcome IN ('queued', 'cooldown')),
  FOREIGN KEY (project_id, rule_id) REFERENCES alert_rules (project_id, id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS alert_evaluations_project_idx ON alert_evaluations (project_id, evaluated_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS alert_evaluations_rule_idx ON alert_evaluations (rule_id, evaluated_at DESC, id DESC);

-- The outbox: written in the same transaction as the evaluation that decided it, so a crash
-- can neither lose a decided notification nor decide it twice. `id` is the idempotency id
-- receivers see.
CREATE TABLE IF NOT EXISTS alert_notifications (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id    uuid NOT NULL,
  rule_id       uuid NOT NULL,
  evaluation_id uuid NOT NULL UNIQUE REFERENCES alert_evaluations (id) ON DELETE CASCADE,
  kind          text NOT NULL CHECK (kind IN ('triggered', 'resolved')),
  payload       jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (project_id, rule_id) REFERENCES alert_rules (project_id, id) ON DELETE CASCADE
);

-- One delivery per (notification, channel), retried with backoff by the deliverer, which
-- claims due rows with a lease like the evaluator does.
CREATE TABLE IF NOT EXISTS notification_deliveries (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  notification_id  uuid NOT NULL REFERENCES alert_notifications (id) ON DELETE CASCADE,
  channel_id       uuid NOT NULL REFERENCES notification_channels (id) ON DELETE CASCADE,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  lease_token      uuid,
  lease_expires_at timestamptz,
  last_status_code integer,
  last_error       text,
  last_attempt_at  timestamptz,
  delivered_at     timestamptz,
  UNIQUE (notification_id, channel_id)
);
CREATE INDEX IF NOT EXISTS notification_deliveries_due_idx
  ON notification_deliveries (next_attempt_at) WHERE status = 'pending';
