-- Accounts, projects and API keys: the control plane every service reads.
-- Frozen once applied: change the schema in a new numbered file.

-- Plans are data, not code, so limits can be changed without a deploy.
-- NULL means "no limit".
CREATE TABLE IF NOT EXISTS plans (
  id                          text PRIMARY KEY,
  name                        text NOT NULL,
  api_requests_per_hour       integer NOT NULL CHECK (api_requests_per_hour > 0),
  max_active_keys_per_project integer CHECK (max_active_keys_per_project > 0),
  monthly_event_budget        bigint CHECK (monthly_event_budget > 0),
  ingest_batches_per_second   integer NOT NULL CHECK (ingest_batches_per_second > 0)
);

INSERT INTO plans (id, name, api_requests_per_hour, max_active_keys_per_project, monthly_event_budget, ingest_batches_per_second)
VALUES
  ('free',       'Free',       100,    2,    1000000,    20),
  ('pro',        'Pro',        10000,  20,   200000000,  1000),
  ('enterprise', 'Enterprise', 100000, NULL, 5000000000, 10000)
ON CONFLICT (id) DO NOTHING;

CREATE TABLE IF NOT EXISTS tenants (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  plan_id    text NOT NULL REFERENCES plans (id),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS users (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id     uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  -- Stored lower-cased; the unique index makes sign-in lookups exact.
  email         text NOT NULL UNIQUE CHECK (email = lower(email)),
  -- Argon2id (memory-hard); never the password itself.
  password_hash text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS projects (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id  uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, name)
);
CREATE INDEX IF NOT EXISTS projects_tenant_idx ON projects (tenant_id);

CREATE TABLE IF NOT EXISTS api_keys (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id     uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name           text NOT NULL DEFAULT '',
  preset         text NOT NULL CHECK (preset IN ('ingest', 'read', 'readWrite', 'full', 'custom')),
  -- Authorization is decided by these scopes, never by the key's prefix.
  scopes         text[] NOT NULL,
  -- SHA-256 of the whole key. Keys carry 256 random bits, so a fast hash is enough to make a
  -- leaked table useless, and it lets the gateway find a key with one indexed lookup.
  key_hash       bytea NOT NULL UNIQUE,
  -- The first characters of the key, shown in lists so a user can tell keys apart.
  display_prefix text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  last_used_at   timestamptz,
  deactivated_at timestamptz
);
CREATE INDEX IF NOT EXISTS api_keys_active_by_project_idx
  ON api_keys (project_id) WHERE deactivated_at IS NULL;
