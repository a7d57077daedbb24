-- How many days each project keeps raw events, copied from Postgres (plans.raw_retention_days,
-- projects.raw_retention_days) by the API's retention worker, for the events table's
-- retention_days column (009), which reads it at insert with joinGet. Only projects whose
-- retention differs from the default (90) need a row: a missing project reads 0 there.
-- Why a lookup at insert rather than a value the consumer writes: the insert path (gateway
-- envelope, consumer, RowBinary column list, rollup_input) stays as it is, and a changed
-- setting applies to the next insert once the worker copied it (within a sweep).
-- Join engine: kept in memory and on disk, read by key; the worker replaces its rows whole.
CREATE TABLE IF NOT EXISTS project_retention (
  project_id     UUID,
  retention_days UInt16
)
ENGINE = Join(ANY, LEFT, project_id);
