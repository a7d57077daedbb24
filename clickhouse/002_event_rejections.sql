-- Events the consumer discarded, counted per project, day and reason, one row per
-- (Kafka batch, reason). Keying on batch_id makes a redelivered batch replace its own counts
-- instead of adding to them; readers sum with FINAL.
CREATE TABLE IF NOT EXISTS event_rejections (
  project_id UUID,
  day        Date,
  reason     String,
  batch_id   UUID,
  count      UInt64
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day, reason, batch_id);
