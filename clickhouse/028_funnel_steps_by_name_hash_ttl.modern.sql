-- The re-keyed funnel_steps (027) expires with the raw events, as 019 set for the table it
-- replaces: whole parts only. Set while the table is empty (a TTL added to a filled table
-- rewrites its parts); 18.16 has no TTL and the retention worker drops its partitions.
ALTER TABLE funnel_steps_by_name_hash MODIFY TTL timestamp + toIntervalDay(retention_days);

ALTER TABLE funnel_steps_by_name_hash MODIFY SETTING ttl_only_drop_parts = 1;
