import type { Readable } from 'node:stream';
import { raw, sql, type ClickHouseReader, type SqlFragment } from '@framedeck/clickhouse';

export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export type EventExportQuery = {
  projectId: string;
  from?: Date | undefined;
  to?: Date | undefined;
  format: ExportFormat;
};

/**
 * The exported event fields, in order. Attributes and metrics are two parallel arrays each
 * (ClickHouse 18.16 has no Map type); position is null when the event carried none.
 */
const EVENT_COLUMNS = raw(`toString(event_id) AS event_id, event_name, timestamp_us,
  formatDateTime(timestamp, '%FT%TZ', 'UTC') AS timestamp, session_id, player_id, map_id,
  if(has_position = 1, position_x, NULL) AS position_x, if(has_position = 1, position_y, NULL) AS position_y,
  if(has_position = 1, position_z, NULL) AS position_z,
  fps, frame_time_ms, memory_used_bytes, gpu_time_ms, game_thread_ms, render_thread_ms, camera_yaw, camera_pitch,
  attributes.key AS attribute_keys, attributes.value AS attribute_values,
  metrics.key AS metric_keys, metrics.value AS metric_values,
  toString(source) AS source, build_id, platform, engine_version, sdk_version,
  formatDateTime(received_at, '%FT%TZ', 'UTC') AS received_at`);

function exportQuery(q: EventExportQuery): SqlFragment {
  const from = q.from ? sql` AND timestamp_us >= ${q.from.getTime() * 1000}` : sql``;
  const to = q.to ? sql` AND timestamp_us < ${q.to.getTime() * 1000}` : sql``;
  // NDJSON lines say what they are, so events can follow the other resources in one stream.
  const kind = q.format === 'ndjson' ? raw(`'event' AS kind, `) : raw('');
  const format = q.format === 'ndjson' ? raw('JSONEachRow') : raw('CSVWithNames');
  return sql`SELECT ${kind}${EVENT_COLUMNS}
               FROM events FINAL
              WHERE project_id = toUUID(${q.projectId})${from}${to}
             FORMAT ${format}`;
}

/**
 * The project's events as a byte stream straight from ClickHouse (one JSON object per line,
 * or CSV with a header row). Memory stays bounded whatever the size: the bytes are never
 * parsed, and a consumer that stops reading stops the HTTP download from ClickHouse (TCP
 * backpressure). FINAL: an export is a copy of the data, so Kafka redeliveries that no merge
 * has collapsed yet must not appear twice. No order is promised (FINAL reads partitions in
 * parallel); every line carries timestamp_us.
 */
export function streamEvents(clickhouse: ClickHouseReader, q: EventExportQuery): Promise<Readable> {
  return clickhouse.stream(exportQuery(q));
}
