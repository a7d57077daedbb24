-- The 10-unit Events overview (daily and weekly rows, 033) again with granules of 1,024 rows instead
-- of 8,192: the same columns, key and rows, copied over and swapped in by name, as 037 did for the
-- 25-unit overview.
--
-- Why: a 30-day Events heatmap of 10 units reads one key range (map, name, a range of weeks) per
-- part of these tables, and each part makes it read whole granules on both sides of that range. On
-- the bench's 100 M set, part-loaded, one week's rows of map_0 / event_3 lay in 8 parts: a band of
-- the heatmap matched 31,417 rows and read 126,612. The same rows in the same 11 parts with
-- 1,024-row granules: 48,788 read, the heatmap's SQL 94–105 → 82–86 ms at p50, and a week of the
-- 10 M set 62–64 → 51–55 (docs/performance.md, thirty-second run). 037 measured the 25-unit
-- Events heatmap at 10 M only, where its rows were few and dense in their parts, and left this
-- overview as it was.
--
-- Why a copy, and why no view is made again: as in 037 (neither engine changes a table's
-- index_granularity in place; a view's TO table is looked up by name at each insert, so 033's views
-- write to the new tables after the RENAME). Nothing reads these tables from a view: the copy
-- triggers none.
--
-- Exactly once as before: the rows are copied as they are (sums, histogram entries, insert marks);
-- the ledger (007) is not touched. No player id: erasure needs nothing here; expiry stays by month
-- partition. Rows inserted while this runs would be lost with the old table: it runs before the
-- consumer starts, like every migration.
--
-- Re-runnable as 037 is: a run that stopped after its RENAME left the old rows in *_large_granules
-- (the copy is already in place, and is copied again); one that stopped during the copy left a part
-- of it in *_small_granules. Both go first, but only while the overview itself exists.
-- framedeck:when-table-exists rollup_heatmap_overview_10_events
DROP TABLE IF EXISTS rollup_heatmap_overview_10_events_large_granules;
-- framedeck:when-table-exists rollup_heatmap_overview_10_events
DROP TABLE IF EXISTS rollup_heatmap_overview_10_events_small_granules;

CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_10_events_small_granules AS rollup_heatmap_overview_10_events
ENGINE = SummingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, map_id, event_name, day, cell_y_10, cell_x_10, y_on_grid_10, x_on_grid_10, has_sample, build_id, platform, source)
SETTINGS index_granularity = 1024;

INSERT INTO rollup_heatmap_overview_10_events_small_granules SELECT * FROM rollup_heatmap_overview_10_events;

RENAME TABLE rollup_heatmap_overview_10_events TO rollup_heatmap_overview_10_events_large_granules,
             rollup_heatmap_overview_10_events_small_granules TO rollup_heatmap_overview_10_events;

DROP TABLE IF EXISTS rollup_heatmap_overview_10_events_large_granules;

-- The weekly rows, the same way (033 made them AS the daily table: now with its small granules).
-- framedeck:when-table-exists rollup_heatmap_overview_10_events_weekly
DROP TABLE IF EXISTS rollup_heatmap_overview_10_events_weekly_large_granules;
-- framedeck:when-table-exists rollup_heatmap_overview_10_events_weekly
DROP TABLE IF EXISTS rollup_heatmap_overview_10_events_weekly_small_granules;

CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_10_events_weekly_small_granules AS rollup_heatmap_overview_10_events;

INSERT INTO rollup_heatmap_overview_10_events_weekly_small_granules SELECT * FROM rollup_heatmap_overview_10_events_weekly;

RENAME TABLE rollup_heatmap_overview_10_events_weekly TO rollup_heatmap_overview_10_events_weekly_large_granules,
             rollup_heatmap_overview_10_events_weekly_small_granules TO rollup_heatmap_overview_10_events_weekly;

DROP TABLE IF EXISTS rollup_heatmap_overview_10_events_weekly_large_granules;
