import { z } from 'zod';
import { ApiProblem, problems } from '@framedeck/problem';
import {
  DEFAULT_ROW_LIMIT,
  MAX_ROW_LIMIT,
  MAX_SQL_LENGTH,
  SqlQuotaExceeded,
  SqlRejection,
  SqlSandboxUnavailable,
} from '@framedeck/sql-sandbox';
import type { ApiServices } from '../http/api-services.js';
import { defineRoute } from '../http/route.js';

const QueryBody = z.strictObject({
  project_id: z.uuid().meta({ description: 'The project whose events `events` shows; one the API key holds.' }),
  sql: z
    .string()
    .min(1)
    .max(MAX_SQL_LENGTH)
    .meta({
      description:
        'One SELECT (WITH and UNION ALL allowed) over the table `events`: the project’s own events, every event ' +
        'column but project_id, plus `position` (x, y, z). Only allow-listed functions; no other tables, table ' +
        'functions, SETTINGS, FORMAT or INTO OUTFILE.',
    }),
  limit: z
    .int()
    .min(1)
    .max(MAX_ROW_LIMIT)
    .default(DEFAULT_ROW_LIMIT)
    .meta({ description: `Most rows returned: 1 to ${MAX_ROW_LIMIT}, default ${DEFAULT_ROW_LIMIT}.` }),
});

const QueryResult = z
  .object({
    rows: z.array(z.record(z.string(), z.unknown())).meta({
      description: 'One object per row, keyed by column name, in ClickHouse JSON form (dates as strings).',
    }),
    rowCount: z.int().meta({ description: 'Number of rows returned.' }),
    truncated: z.boolean().meta({ description: 'True when the query produced more rows than `limit`.' }),
  })
  .meta({ id: 'QueryResult' });

export const queryRoute = defineRoute({
  method: 'post',
  path: '/v1/query',
  operationId: 'runSqlQuery',
  summary: 'Run a raw SQL query over the project’s events (sandboxed)',
  description:
    'API keys holding data:admin only (OAuth tokens never hold it: 403). A project the key does not hold is 404. ' +
    'A rejected query — forbidden table, function or clause, syntax error, unknown column, type mismatch, a ' +
    'resource limit — is 400 with the diagnostic in `detail`. 429 when the project used up its hourly SQL quota ' +
    'or already has 2 queries running; ' +
    '500 (with Retry-After) only when the analytics database is unreachable or failing.',
  tag: 'Data',
  auth: { scope: 'data:admin' },
  request: { body: QueryBody },
  response: { description: 'The rows.', data: QueryResult },
  handler: async ({ body, requireProject, services }) => {
    const projectId = requireProject(body.project_id.toLowerCase());
    const sandbox = await services.sqlSandbox();
    try {
      return await sandbox.run({ projectId, sql: body.sql, limit: body.limit });
    } catch (error) {
      throw toQueryProblem(error, services);
    }
  },
});

/** The spec: a rejected query is 400 with the diagnostic; only infrastructure failure is 500. */
function toQueryProblem(error: unknown, services: ApiServices): unknown {
  if (error instanceof SqlRejection) return problems.badRequest(error.message);
  if (error instanceof SqlQuotaExceeded) return problems.tooManyRequests(error.message, error.retryAfterSeconds);
  if (error instanceof SqlSandboxUnavailable) {
    services.logger.warn({ err: error.cause ?? error }, 'sql sandbox unavailable');
    return new ApiProblem(500, error.message, { retryAfterSeconds: 5, retryable: true });
  }
  return error;
}
