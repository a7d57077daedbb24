-- funnel_steps (018) expires with the raw events: the TTL of events (009), whole parts only.
-- 18.16 has no TTL; the retention worker drops its expired partitions there (and here too,
-- ahead of the TTL).
ALTER TABLE funnel_steps MODIFY TTL timestamp + toIntervalDay(retention_days);

ALTER TABLE funnel_steps MODIFY SETTING ttl_only_drop_parts = 1;
