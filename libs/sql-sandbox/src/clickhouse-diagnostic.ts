import { isConnectionError, parseClickHouseError } from '@framedeck/clickhouse';
import { ProjectDatabaseMissing, SqlQuotaExceeded, SqlRejection, SqlSandboxUnavailable } from './sandbox-errors.js';

/**
 * Turns what ClickHouse answered into one of the sandbox's three failures. Almost every
 * server exception is a diagnostic about the query (unknown identifier, syntax, types,
 * a resource limit) and goes back to the analyst; a few codes mean the server or our own
 * set-up failed and are infrastructure errors.
 */

/** ClickHouse error codes (stable across versions) that are not the query's fault. */
const INFRASTRUCTURE_CODES = new Set([
  3, // UNEXPECTED_END_OF_FILE
  74, // CANNOT_READ_FROM_FILE_DESCRIPTOR
  75, // CANNOT_WRITE_TO_FILE_DESCRIPTOR
  76, // CANNOT_OPEN_FILE
  173, // CANNOT_ALLOCATE_MEMORY
  192, // UNKNOWN_USER
  193, // WRONG_PASSWORD
  194, // REQUIRED_PASSWORD
  195, // IP_ADDRESS_NOT_ALLOWED
  209, // SOCKET_TIMEOUT
  210, // NETWORK_ERROR
  225, // NO_ZOOKEEPER
  242, // TABLE_IS_READ_ONLY
  243, // NOT_ENOUGH_SPACE
  516, // AUTHENTICATION_FAILED
  999, // KEEPER_EXCEPTION
  1000, // POCO_EXCEPTION
  1001, // STD_EXCEPTION
]);
const UNKNOWN_TABLE = 60;
const UNKNOWN_DATABASE = 81;
const TOO_MANY_SIMULTANEOUS_QUERIES = 202;
/** Seconds a caller refused for concurrency should wait: sandbox queries last seconds. */
export const CONCURRENCY_RETRY_AFTER_SECONDS = 2;
const QUOTA_EXPIRED = 201;
const MAX_MESSAGE_LENGTH = 1_000;

export type DiagnosticContext = {
  /** The project's own database (fd_p_…), never shown: analysts only know `events`. */
  projectDatabase: string;
  /** The shared database behind the view, never shown. */
  sharedDatabase: string;
};

export function toSandboxFailure(
  error: unknown,
  context: DiagnosticContext,
): SqlRejection | SqlQuotaExceeded | SqlSandboxUnavailable {
  if (error instanceof SqlRejection || error instanceof SqlQuotaExceeded || error instanceof SqlSandboxUnavailable) {
    return error;
  }
  if (isConnectionError(error)) {
    return new SqlSandboxUnavailable('The analytics database is unreachable; try again shortly.', { cause: error });
  }
  const server = parseClickHouseError(error);
  if (!server) {
    return new SqlSandboxUnavailable('The analytics database failed to answer; try again shortly.', { cause: error });
  }
  if (server.code === QUOTA_EXPIRED) {
    return new SqlQuotaExceeded('This project used up its hourly SQL quota; try again later.', 3_600);
  }
  if (server.code === TOO_MANY_SIMULTANEOUS_QUERIES) {
    // The engine's own per-user cap (users.xml); the admission control in front of it normally
    // refuses first, so this is a fairness limit reached, not a failure.
    return new SqlQuotaExceeded(
      'Too many SQL queries are running right now; retry in a few seconds.',
      CONCURRENCY_RETRY_AFTER_SECONDS,
    );
  }
  // The project's database or view missing (dropped under us) is our set-up, not the analyst's
  // query: analysts cannot name databases. The sandbox recreates it and retries once.
  // Only when the message names the project's own database: a name the analyst smuggled past
  // the checker is their query's error, not a reason to rebuild anything.
  if (
    (server.code === UNKNOWN_DATABASE && server.message.includes(context.projectDatabase)) ||
    (server.code === UNKNOWN_TABLE && server.message.includes(`${context.projectDatabase}.events`))
  ) {
    return new ProjectDatabaseMissing({ cause: error });
  }
  if (INFRASTRUCTURE_CODES.has(server.code)) {
    return new SqlSandboxUnavailable('The analytics database failed to run the query; try again shortly.', {
      cause: error,
    });
  }
  return new SqlRejection(`ClickHouse: ${cleanDiagnostic(server.message, context)}`, 'clickhouse');
}

/**
 * ClickHouse's text without internals: no stack trace, no server version or host, no
 * database names (the analyst wrote `events`, not `fd_p_….events` or the shared table),
 * and no echo of the query as the server rewrote it (which would show the view's filter).
 */
export function cleanDiagnostic(message: string, context: DiagnosticContext): string {
  let text = message
    .replace(/\s*Stack trace:[\s\S]*$/i, '')
    .replace(/,?\s*(?:while processing query|context):[\s\S]*$/i, '')
    .replace(/\s*\(version [^)]*\)/gi, '')
    .replace(/\s*\(from \[[^\]]*\]:\d+\)/g, '');
  for (const database of [context.projectDatabase, context.sharedDatabase]) {
    text = text.replace(new RegExp(`\`?\\b${escapeRegExp(database)}\\b\`?\\.`, 'g'), '');
  }
  text = text.trim();
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH)}…` : text;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
