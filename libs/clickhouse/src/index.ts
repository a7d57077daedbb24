export { createAdminClient, createSandboxClient, ensureClickHouseDatabase, type ClickHouseClient } from './client.js';
export { CLICKHOUSE_MIGRATIONS_DIR, migrateClickHouse, splitStatements } from './migrations.js';
export { identifier, join, literal, quoteString, raw, sql, type SqlFragment, type SqlValue } from './sql.js';
export { isConnectionError, parseClickHouseError, type ClickHouseServerError } from './errors.js';
export { eventIdFor, isUuid, uuidFromRowBinary, uuidToRowBinary, writeEventId } from './event-id.js';
export {
  EVENT_INSERT_COLUMNS,
  EventsRowBinaryBlock,
  type EventBatchContext,
  type EventRowInput,
} from './events.rowbinary.js';
export {
  insertEventRejections,
  insertEventsBlock,
  isTransientInsertError,
  retryInsert,
  type EventRejectionRow,
  type RetryOptions,
} from './events.writer.js';
export { queryProjectActivity, queryProjectRejections, type ProjectActivity } from './project-activity.queries.js';
