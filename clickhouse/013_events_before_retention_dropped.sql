-- The old layout's copy (011 renamed it): its rows are all in `events` (010), and kept here
-- they would never expire.
DROP TABLE IF EXISTS events_before_retention;
