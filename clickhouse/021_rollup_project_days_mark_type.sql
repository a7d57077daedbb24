-- rollup_project_days (016) kept its insert mark as AggregateFunction(sumWithOverflow, UInt32).
-- 18.16 names that state type `sum` when it stores the table's definition, so once the server
-- restarted it read the column as `sum` of UInt32 (an 8-byte state) from parts written with
-- 4-byte states: every merge of the table failed ("Cannot read all data ... while reading column
-- insert_mark") and its parts piled up (89 unmerged parts after the 100 M bench load). Only the
-- mark is unreadable; the counts and distinct-count states are intact.
-- The mark becomes a `sum` of UInt64 hashes (wrapping, as sumWithOverflow did): a type 18.16
-- stores under its own name. The old marks go with the old column; a mark only matters while a
-- cluster repeats an insert it already committed (015), i.e. for the blocks in flight, which
-- the consumer does not have during a migration.
DROP TABLE IF EXISTS rollup_project_days_mv;

-- framedeck:when-column-exists rollup_project_days insert_mark
ALTER TABLE rollup_project_days DROP COLUMN insert_mark;

-- framedeck:when-column-missing rollup_project_days insert_mark
ALTER TABLE rollup_project_days ADD COLUMN insert_mark AggregateFunction(sum, UInt64);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_project_days_mv TO rollup_project_days AS
SELECT project_id, toDate(timestamp) AS day,
       countState() AS events,
       uniqCombinedIfState(player_id, player_id != '') AS players,
       uniqCombinedState(session_id) AS sessions,
       sumState(cityHash64(toString(event_id))) AS insert_mark
  FROM rollup_input
 GROUP BY project_id, day;
