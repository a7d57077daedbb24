-- The 25-unit heatmap overview (daily rows 007/014/015, weekly rows 026) again with granules of
-- 1,024 rows instead of 8,192: the same columns, key and rows, copied over and swapped in by name.
--
-- Why: a Performance-mode row carries its cell's frame-time histogram, (bucket, 1) per sample
-- until merges sum it, so a week's row of a fresh part holds hundreds of entries. A heatmap reads
-- one key range per part, and every part makes it read whole granules on both sides of that range:
-- on the bench's 10 M events, the default Performance heatmap (7 days, one week's rows) matched
-- 5,147 rows and read 40,960 with ~3.5 M histogram entries. The same rows in the same number of
-- parts with 1,024-row granules: 15,360 read, SQL 74–79 → 34–37 ms (docs/performance.md,
-- eighteenth run). Events-mode rows hold a few entries each and read as fast either way; the
-- 5-unit overviews read mostly matching rows (a day range of every cell) and gained nothing, so
-- they keep their granules.
--
-- Why a copy: neither engine can change a table's index_granularity (18.16 has no MODIFY SETTING,
-- and the modern engine refuses it for this setting). The views keep writing to the overview:
-- a view's TO table is looked up by name at each insert, on 18.16 and on 26.x (measured: after a
-- RENAME like the one below, the next insert landed in the new table on both), so no view is
-- created again. Nothing reads these tables from a view: the copy triggers none.
--
-- Exactly once as before: the rows are copied as they are (sums, histogram entries, insert marks);
-- the ledger (007) is not touched. No player id: erasure needs nothing here; expiry stays by
-- month partition. Rows inserted while this runs would be lost with the old table: it runs before
-- the consumer starts, like every migration.
--
-- Re-runnable: a run that stopped after its RENAME left the old rows in *_large_granules (the
-- copy is already in place, and is copied again); one that stopped during the copy left a part
-- of it in *_small_granules. Both go first, but only while the overview itself exists: should a
-- RENAME have stopped between its two tables, the run fails at the copy with both kept.
-- framedeck:when-table-exists rollup_heatmap_overview_25
DROP TABLE IF EXISTS rollup_heatmap_overview_25_large_granules;
-- framedeck:when-table-exists rollup_heatmap_overview_25
DROP TABLE IF EXISTS rollup_heatmap_overview_25_small_granules;

CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_25_small_granules AS rollup_heatmap_overview_25
ENGINE = SummingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, map_id, has_sample, event_name, day, build_id, platform, source, cell_y, cell_x, y_on_grid, x_on_grid)
SETTINGS index_granularity = 1024;

INSERT INTO rollup_heatmap_overview_25_small_granules SELECT * FROM rollup_heatmap_overview_25;

RENAME TABLE rollup_heatmap_overview_25 TO rollup_heatmap_overview_25_large_granules,
             rollup_heatmap_overview_25_small_granules TO rollup_heatmap_overview_25;

DROP TABLE IF EXISTS rollup_heatmap_overview_25_large_granules;

-- The weekly rows, the same way (026 made them AS the daily table: now with its small granules).
-- framedeck:when-table-exists rollup_heatmap_overview_25_weekly
DROP TABLE IF EXISTS rollup_heatmap_overview_25_weekly_large_granules;
-- framedeck:when-table-exists rollup_heatmap_overview_25_weekly
DROP TABLE IF EXISTS rollup_heatmap_overview_25_weekly_small_granules;

CREATE TABLE IF NOT EXISTS rollup_heatmap_overview_25_weekly_small_granules AS rollup_heatmap_overview_25;

INSERT INTO rollup_heatmap_overview_25_weekly_small_granules SELECT * FROM rollup_heatmap_overview_25_weekly;

RENAME TABLE rollup_heatmap_overview_25_weekly TO rollup_heatmap_overview_25_weekly_large_granules,
             rollup_heatmap_overview_25_weekly_small_granules TO rollup_heatmap_overview_25_weekly;

DROP TABLE IF EXISTS rollup_heatmap_overview_25_weekly_large_granules;
