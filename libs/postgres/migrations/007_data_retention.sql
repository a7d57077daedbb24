-- Data retention (FrameDeck issue #15). Frozen once applied: change the schema in a new numbered file.

-- How many days raw events are kept: per plan, and per project where a project overrides its
-- plan. The values are a short list because ClickHouse partitions events by
-- (retention_days, week) (clickhouse/008): each distinct value is its own set of partitions.
-- Keep the list in step with RETENTION_DAYS_CHOICES (libs/postgres data-retention.repository.ts).
ALTER TABLE plans
  ADD COLUMN IF NOT EXISTS raw_retention_days integer NOT NULL DEFAULT 90
    CHECK (raw_retention_days IN (7, 14, 30, 60, 90, 180, 365, 730));
ALTER TABLE projects
  ADD COLUMN IF NOT EXISTS raw_retention_days integer
    CHECK (raw_retention_days IN (7, 14, 30, 60, 90, 180, 365, 730));

-- Erasure requests are coalesced: the sweep starts one ClickHouse mutation per table for every
-- job waiting, tagged with this sweep's tag. NULL = waiting for the next sweep.
ALTER TABLE erasure_jobs ADD COLUMN IF NOT EXISTS mutation_tag text;
CREATE INDEX IF NOT EXISTS erasure_jobs_running_idx ON erasure_jobs (created_at) WHERE status = 'running';
