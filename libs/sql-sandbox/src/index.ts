export { cleanDiagnostic, toSandboxFailure, type DiagnosticContext } from './clickhouse-diagnostic.js';
export { ANALYST_COLUMNS, ProjectDatabases, projectDatabaseName, projectPassword } from './project-database.js';
export {
  ProjectDatabaseMissing,
  SqlQueryCancelled,
  SqlQuotaExceeded,
  SqlRejection,
  SqlSandboxUnavailable,
} from './sandbox-errors.js';
export {
  DEFAULT_ADMISSION_LIMITS,
  LocalAdmission,
  MAX_CONCURRENT_QUERIES_GLOBAL,
  MAX_CONCURRENT_QUERIES_PER_TENANT,
  RedisAdmission,
  type AdmissionLimits,
  type AdmissionRedis,
  type AdmissionSlot,
  type QueryAdmission,
} from './query-admission.js';
export {
  RedisHourlyQuota,
  SANDBOX_HOURLY_LIMITS,
  type HourlyLimits,
  type HourlyQuota,
  type QuerySpend,
  type QuotaRedis,
} from './hourly-quota.js';
export { jsonEachRowBytes, type RowLimits, type RowsOutcome } from './result-rows.js';
export { checkAnalystQuery, loadSqlChecker, type CheckedQuery, type CheckOptions } from './sql-checker.js';
export { MAX_SQL_LENGTH } from './sql-lexer.js';
export {
  DEFAULT_ROW_LIMIT,
  MAX_RESULT_BYTES,
  MAX_ROW_LIMIT,
  QUERY_DEADLINE_MS,
  SqlSandbox,
  type SqlRowStream,
  type SqlRunOptions,
  type SqlQueryRequest,
  type SqlQueryResult,
  type SqlSandboxOptions,
} from './sql-sandbox.js';
