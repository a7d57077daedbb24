-- funnel_step_hours (034) expires with the raw events it bounds, whole parts only, set while the
-- table is empty (a TTL added to a filled table rewrites its parts). 18.16 has no TTL; the
-- retention worker drops its partitions with funnel_steps' (RAW_EVENT_TABLES).
ALTER TABLE funnel_step_hours MODIFY TTL hour + toIntervalDay(retention_days);

ALTER TABLE funnel_step_hours MODIFY SETTING ttl_only_drop_parts = 1;
