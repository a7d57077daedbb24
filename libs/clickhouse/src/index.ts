export { createAdminClient, createSandboxClient, ensureClickHouseDatabase, type ClickHouseClient } from './client.js';
export { CLICKHOUSE_MIGRATIONS_DIR, migrateClickHouse, splitStatements } from './migrations.js';
export { identifier, join, literal, quoteString, raw, sql, type SqlFragment, type SqlValue } from './sql.js';
export { isConnectionError, parseClickHouseError, type ClickHouseServerError } from './errors.js';
