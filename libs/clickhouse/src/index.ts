export { openConnection, openServiceConnection, type ClickHouseClient, type ConnectionOptions } from './connection.js';
export { engineFromVersion, type ServerEngine } from './server-engine.js';
export { ClickHouseReader, createClickHouseReader, READ_SETTINGS, type RowsWithTotals } from './reader.js';
export {
  ClickHouseWriter,
  createClickHouseWriter,
  ensureClickHouseDatabase,
  writerCluster,
  type WriterCluster,
} from './writer.js';
export { retryRead, retryWrite, type RetryOptions } from './retry.js';
export { CLICKHOUSE_MIGRATIONS_DIR, migrateClickHouse, splitStatements } from './migrations.js';
export {
  clusterTarget,
  localTable,
  translateForCluster,
  type ClusterStep,
  type ClusterTarget,
} from './cluster-migrations.js';
export {
  identifier,
  join,
  literal,
  quoteString,
  raw,
  renderSql,
  sql,
  type RenderedSql,
  type SqlFragment,
  type SqlValue,
  type ValueBinding,
} from './sql.js';
export { isConnectionError, isTransientError, parseClickHouseError, type ClickHouseServerError } from './errors.js';
export { eventIdFor, isUuid, uuidFromRowBinary, uuidToRowBinary, writeEventId } from './event-id.js';
export {
  EVENT_INSERT_COLUMNS,
  EventsRowBinaryBlock,
  type EventBatchContext,
  type EventRowInput,
} from './events.rowbinary.js';
export { insertEventRejections, insertEventsBlock, type EventRejectionRow } from './events.writer.js';
export {
  distinctPlayersSql,
  distinctSessionsSql,
  MERGED_SESSIONS_SQL,
  mergedPlayersSql,
  SKETCH_PRECISION,
} from './distinct-counts.js';
export { queryProjectActivity, queryProjectRejections, type ProjectActivity } from './project-activity.queries.js';
export {
  findRolledUpBatches,
  insertRollupInput,
  rollupBatchKey,
  rowsToRollUp,
  type BatchSegment,
} from './rollups.writer.js';
