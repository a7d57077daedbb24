-- The CI key preset (FrameDeck issue #18): events:write + events:synthetic, whose batches are
-- stored as automated runs. Frozen once applied: change the schema in a new numbered file.
-- NOTE: 001 declared the preset check inline, so PostgreSQL named it api_keys_preset_check.
ALTER TABLE api_keys DROP CONSTRAINT IF EXISTS api_keys_preset_check;
ALTER TABLE api_keys
  ADD CONSTRAINT api_keys_preset_check CHECK (preset IN ('ingest', 'read', 'readWrite', 'full', 'ci', 'custom'));
