-- Copies the stored events into the re-laid-out table (009) with the default retention (90
-- days; a project's own setting applies to what it sends from now on).
-- Re-runnable: a copy interrupted half-way and run again inserts rows a second time, which the
-- ReplacingMergeTree collapses (same sorting key, ending in event_id), as it does for Kafka
-- redelivery. Guarded so it does not run again once 011 swapped the names.
-- NOTE: run while no consumer writes (npm start migrates before starting the services);
-- events inserted between this copy and the swap would stay behind in the old table.
-- framedeck:when-table-exists events_by_retention
INSERT INTO events_by_retention (project_id, event_id, event_name, timestamp_us, timestamp, session_id, player_id, has_position, position_x, position_y, position_z, map_id, fps, frame_time_ms, memory_used_bytes, gpu_time_ms, `attributes.key`, `attributes.value`, `metrics.key`, `metrics.value`, source, build_id, platform, engine_version, camera_yaw, camera_pitch, game_thread_ms, render_thread_ms, sdk_version, received_at, retention_days)
SELECT project_id, event_id, event_name, timestamp_us, timestamp, session_id, player_id, has_position, position_x, position_y, position_z, map_id, fps, frame_time_ms, memory_used_bytes, gpu_time_ms, `attributes.key`, `attributes.value`, `metrics.key`, `metrics.value`, source, build_id, platform, engine_version, camera_yaw, camera_pitch, game_thread_ms, render_thread_ms, sdk_version, received_at, 90 AS retention_days
  FROM events;
