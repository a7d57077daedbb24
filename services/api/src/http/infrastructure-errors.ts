import { isConnectionError } from '@framedeck/clickhouse';

// SQLSTATE classes/codes that mean "the database is not reachable or not serving", not "the
// query was wrong": 08 connection exception, 57P0x shutdown/cannot connect now, 53300 too many
// connections.
const PG_OUTAGE_CODES = /^(08...|57P01|57P02|57P03|53300)$/;
const OUTAGE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Timeout error', // @clickhouse/client request timeout
  'socket hang up',
];

/**
 * True when `error` says a backing service (Postgres, ClickHouse) is down or unreachable: the
 * client should retry later (503), it is not a bug of ours (500).
 */
export function isInfrastructureOutage(error: unknown): boolean {
  if (isConnectionError(error)) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && PG_OUTAGE_CODES.test(code)) return true;
  if (error instanceof AggregateError) return error.errors.some(isInfrastructureOutage);
  return typeof message === 'string' && OUTAGE_MESSAGES.some((m) => message.includes(m));
}
