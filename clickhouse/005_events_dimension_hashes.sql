-- Hashes of the string columns insights group by, computed once at insert. Measured on 10 M
-- events (ClickHouse 18.16, 2 cores): a count grouped by event_name takes ~105 ms, grouped by
-- a UInt64 ~60 ms (reading and hashing the strings is the difference). Count insights group
-- by the hash and look the few names up in dimension_names (006).
--
-- MATERIALIZED: not in the consumer's RowBinary column list nor in SELECT *; parts written
-- before this migration compute the value on read until they merge.
-- NOTE: one statement in its own file: 18.16 has no ADD COLUMN IF NOT EXISTS, so a file that
-- failed after this ALTER could not be re-run.
ALTER TABLE events
  ADD COLUMN event_name_hash UInt64 MATERIALIZED cityHash64(event_name),
  ADD COLUMN map_id_hash     UInt64 MATERIALIZED cityHash64(map_id),
  ADD COLUMN platform_hash   UInt64 MATERIALIZED cityHash64(platform),
  ADD COLUMN build_id_hash   UInt64 MATERIALIZED cityHash64(build_id);
