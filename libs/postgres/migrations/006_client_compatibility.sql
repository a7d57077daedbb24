-- What the public Framedash clients (CLI, MCP server) need beyond migrations 004 and 005
-- (FrameDeck issue #19). Frozen once applied: change the schema in a new numbered file.

-- Threshold profiles describe the hardware they are meant for (the CLI's --platform,
-- --resolution, --build-config, --gpu, --storage). NULL = any.
ALTER TABLE threshold_profiles
  ADD COLUMN IF NOT EXISTS platform     text CHECK (length(platform) BETWEEN 1 AND 100),
  ADD COLUMN IF NOT EXISTS resolution   text CHECK (length(resolution) BETWEEN 1 AND 100),
  ADD COLUMN IF NOT EXISTS build_config text CHECK (length(build_config) BETWEEN 1 AND 100),
  ADD COLUMN IF NOT EXISTS gpu          text CHECK (length(gpu) BETWEEN 1 AND 200),
  ADD COLUMN IF NOT EXISTS storage      text CHECK (length(storage) BETWEEN 1 AND 100);

-- A rule holds its cells to one or more profiles (a bundle). alert_rules.threshold_profile_id
-- stays the rule's first (primary) profile, so single-profile rules read as before; this table
-- lists every profile of the rule, the primary one included, in the order they were given.
CREATE TABLE IF NOT EXISTS alert_rule_threshold_profiles (
  project_id uuid NOT NULL,
  rule_id    uuid NOT NULL,
  profile_id uuid NOT NULL,
  position   integer NOT NULL CHECK (position >= 0),
  PRIMARY KEY (rule_id, profile_id),
  FOREIGN KEY (project_id, rule_id) REFERENCES alert_rules (project_id, id) ON DELETE CASCADE,
  FOREIGN KEY (project_id, profile_id) REFERENCES threshold_profiles (project_id, id)
);
CREATE INDEX IF NOT EXISTS alert_rule_threshold_profiles_profile_idx ON alert_rule_threshold_profiles (profile_id);

INSERT INTO alert_rule_threshold_profiles (project_id, rule_id, profile_id, position)
  SELECT project_id, id, threshold_profile_id, 0 FROM alert_rules
  ON CONFLICT DO NOTHING;

-- Which of the rule's profiles decided an evaluation (NULL for evaluations recorded before).
ALTER TABLE alert_evaluations ADD COLUMN IF NOT EXISTS threshold_profile_id uuid;

-- Content entries get a stable id (delete by id), a description and a category.
ALTER TABLE content_entries
  ADD COLUMN IF NOT EXISTS id          uuid NOT NULL DEFAULT gen_random_uuid(),
  ADD COLUMN IF NOT EXISTS description text CHECK (length(description) <= 2000),
  ADD COLUMN IF NOT EXISTS category    text CHECK (length(category) BETWEEN 1 AND 100);
CREATE UNIQUE INDEX IF NOT EXISTS content_entries_id_idx ON content_entries (id);
