-- Content registry: the game's own names for what events refer to (maps, events, builds,
-- platforms, items, …), so analytics can label groups ("map_id m_03" → "Harbour at night").
-- Keyed per project by (type, key); metadata is free-form JSON, capped by the API (16 KiB).
CREATE TABLE IF NOT EXISTS content_entries (
  project_id   uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  type         text NOT NULL CHECK (type ~ '^[a-z][a-z0-9_]{0,63}$'),
  key          text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 200),
  metadata     jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(metadata) = 'object'),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, type, key)
);

-- Player-data erasure requests. The player ids are kept only while the job runs (it needs
-- them to re-check and to start further rounds); a finished job forgets them and keeps
-- the count.
CREATE TABLE IF NOT EXISTS erasure_jobs (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id   uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  player_ids   text[] NOT NULL,
  player_count integer NOT NULL CHECK (player_count > 0),
  status       text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done')),
  -- A round = one ClickHouse mutation; another round starts when rows arrived after the last one.
  round        integer NOT NULL DEFAULT 1 CHECK (round >= 1),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz
);
CREATE INDEX IF NOT EXISTS erasure_jobs_project_idx ON erasure_jobs (project_id, created_at DESC);
