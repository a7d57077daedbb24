-- Maps: world-coordinate bounds and an image per user-specified map id.
-- Images live in their own table, content-addressed and written once: deleting a map
-- removes only its record (spec: "the map image is kept"), and re-uploading the same image
-- stores nothing new. Postgres keeps them so that every API instance serves the same bytes
-- without a shared file system.
CREATE TABLE IF NOT EXISTS map_images (
  project_id   uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  sha256       text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp')),
  width        integer NOT NULL CHECK (width > 0),
  height       integer NOT NULL CHECK (height > 0),
  bytes        bytea NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, sha256)
);

CREATE TABLE IF NOT EXISTS maps (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id   uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- The user's own identifier, used in paths and in the events' map_id.
  map_id       text NOT NULL CHECK (length(map_id) BETWEEN 1 AND 255),
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  image_sha256 text NOT NULL,
  world_min_x  double precision NOT NULL,
  world_min_y  double precision NOT NULL,
  world_max_x  double precision NOT NULL,
  world_max_y  double precision NOT NULL,
  world_min_z  double precision,
  world_max_z  double precision,
  image_width  integer NOT NULL,
  image_height integer NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, map_id),
  FOREIGN KEY (project_id, image_sha256) REFERENCES map_images (project_id, sha256),
  CHECK (world_max_x > world_min_x AND world_max_y > world_min_y),
  CHECK (world_min_z IS NULL OR world_max_z IS NULL OR world_max_z > world_min_z)
);
CREATE INDEX IF NOT EXISTS maps_project_created_idx ON maps (project_id, created_at DESC);
