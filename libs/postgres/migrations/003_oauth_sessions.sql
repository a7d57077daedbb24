-- OAuth 2.1 authorization server state and dashboard sign-in sessions.
-- Frozen once applied: change the schema in a new numbered file.

-- Every stateful model of the authorization server (oidc-provider): clients, grants,
-- authorization codes, access and refresh tokens, interactions, browser sessions.
-- The library treats payloads as opaque documents, so one table serves every model.
CREATE TABLE IF NOT EXISTS oauth_models (
  model      text NOT NULL,
  -- For bearer secrets (codes, tokens, browser sessions) the hex SHA-256 of the value: a
  -- leaked table holds nothing anyone can present.
  id         text NOT NULL,
  payload    jsonb NOT NULL,
  -- Codes and tokens of one grant are revoked together (refresh-token reuse, code replay,
  -- an app revoked in the dashboard).
  grant_id   text,
  uid        text,
  expires_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX IF NOT EXISTS oauth_models_grant_idx ON oauth_models (grant_id) WHERE grant_id IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS oauth_models_uid_idx ON oauth_models (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX IF NOT EXISTS oauth_models_expiry_idx ON oauth_models (expires_at) WHERE expires_at IS NOT NULL;

-- What a dashboard user consented to for one OAuth client: the scopes and the projects its
-- tokens may use. One row per (user, client): re-consenting replaces the previous grant.
CREATE TABLE IF NOT EXISTS oauth_consents (
  grant_id     text PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  tenant_id    uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_id    text NOT NULL,
  -- Defence in depth: OAuth can never hold data:admin, events:write or events:synthetic,
  -- whatever the code above this table does.
  scopes       text[] NOT NULL CHECK (
                 cardinality(scopes) > 0 AND scopes <@ ARRAY['analytics:read', 'resources:write']::text[]),
  project_ids  uuid[] NOT NULL CHECK (cardinality(project_ids) > 0),
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  UNIQUE (user_id, client_id)
);

-- Dashboard sign-in sessions. The cookie holds a random value; only its SHA-256 is stored.
CREATE TABLE IF NOT EXISTS dashboard_sessions (
  id_hash      bytea PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  -- Absolute end of the session; the idle timeout is checked against last_seen_at.
  expires_at   timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS dashboard_sessions_user_idx ON dashboard_sessions (user_id);
CREATE INDEX IF NOT EXISTS dashboard_sessions_expiry_idx ON dashboard_sessions (expires_at);

-- Secrets the API generates on first start and every instance must share (cookie signing
-- keys, the authorization server's signing key, the CSRF key), so `npm start` needs no
-- secret configuration and several API instances agree.
CREATE TABLE IF NOT EXISTS server_secrets (
  name       text PRIMARY KEY,
  value      jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
