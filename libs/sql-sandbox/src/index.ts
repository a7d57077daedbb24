export { cleanDiagnostic, toSandboxFailure, type DiagnosticContext } from './clickhouse-diagnostic.js';
export { ANALYST_COLUMNS, ProjectDatabases, projectDatabaseName, projectPassword } from './project-database.js';
export { SqlQuotaExceeded, SqlRejection, SqlSandboxUnavailable } from './sandbox-errors.js';
export { checkAnalystQuery, loadSqlChecker, type CheckedQuery } from './sql-checker.js';
export { MAX_SQL_LENGTH } from './sql-lexer.js';
export {
  DEFAULT_ROW_LIMIT,
  MAX_CONCURRENT_QUERIES_PER_PROJECT,
  MAX_ROW_LIMIT,
  SqlSandbox,
  type SqlQueryRequest,
  type SqlQueryResult,
  type SqlSandboxOptions,
} from './sql-sandbox.js';
