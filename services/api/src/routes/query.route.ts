import { once } from 'node:events';
import type { Response } from 'express';
import { z } from 'zod';
import { DATA_RETENTION } from '@framedeck/analytics';
import type { SqlQueryOutcome } from '@framedeck/metrics';
import { getProjectRetentionDays } from '@framedeck/postgres';
import { ApiProblem, problems } from '@framedeck/problem';
import {
  DEFAULT_ROW_LIMIT,
  MAX_CONCURRENT_QUERIES_GLOBAL,
  MAX_CONCURRENT_QUERIES_PER_TENANT,
  MAX_RESULT_BYTES,
  MAX_ROW_LIMIT,
  MAX_SQL_LENGTH,
  QUERY_DEADLINE_MS,
  SqlQueryCancelled,
  SqlQuotaExceeded,
  SqlRejection,
  SqlSandboxUnavailable,
  type SqlRowStream,
} from '@framedeck/sql-sandbox';
import type { ApiServices } from '../http/api-services.js';
import { defineRoute } from '../http/route.js';

/** The days of events the project's view shows: its retention (none when the window is off, for test stacks). */
async function retainedWindow(services: ApiServices, projectId: string): Promise<number | undefined> {
  if (!services.config.dataLifecycle.sqlRetainedWindowOnly) return undefined;
  return (await getProjectRetentionDays(services.pool, projectId)) ?? DATA_RETENTION.defaultRawDays;
}

/**
 * Bytes held before the status is sent: a result (or the start of one) up to this size is
 * answered whole, so an error ClickHouse reports within it still becomes a 400/429/500.
 */
const COMMIT_BYTES = 256 * 1024;
/** Rows are written to the socket in batches of about this size. */
const WRITE_BATCH_BYTES = 64 * 1024;

const QueryBody = z.strictObject({
  project_id: z.uuid().meta({ description: 'The project whose events `events` shows; one the API key holds.' }),
  sql: z
    .string()
    .min(1)
    .max(MAX_SQL_LENGTH)
    .meta({
      description:
        'One SELECT (WITH and UNION ALL allowed) over the table `events`: the project’s own events of its retained ' +
        'window (the last dataWindow.retentionDays days, GET /v1/projects/{id}/status), every event ' +
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
    truncated: z.boolean().meta({
      description: `True when the query produced more rows than \`limit\` or more than ${MAX_RESULT_BYTES} bytes of rows.`,
    }),
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
    `resource limit, more than ${QUERY_DEADLINE_MS / 1_000} s — is 400 with the diagnostic in \`detail\`. ` +
    `429 with Retry-After when the project used up its hourly SQL quota, its tenant already has ` +
    `${MAX_CONCURRENT_QUERIES_PER_TENANT} queries running, or ${MAX_CONCURRENT_QUERIES_GLOBAL} queries of all ` +
    'tenants run (counted across every API instance). 503 when the project’s analytics view could not be ' +
    'rebuilt; 500 (with Retry-After) only when the analytics database is unreachable or failing. ' +
    'The rows are streamed as ClickHouse produces them; at most `limit` rows and ' +
    `${MAX_RESULT_BYTES} bytes of row JSON are returned (\`truncated\` says there were more). ` +
    'A query is stopped in ClickHouse when the client disconnects. An error after the first ' +
    `${COMMIT_BYTES} bytes were sent cannot change the status any more: the connection is then closed ` +
    'before the JSON is complete, so a truncated body never parses as a valid answer.',
  tag: 'Data',
  auth: { scope: 'data:admin' },
  request: { body: QueryBody },
  response: { description: 'The rows.', data: QueryResult },
  errors: [400, 429, 500, 503],
  errorDescriptions: {
    400:
      'The body is invalid, or the query was refused: by the checker, by ClickHouse (syntax, unknown column or ' +
      `function, type, a resource limit), or because it ran longer than ${QUERY_DEADLINE_MS / 1_000} s. ` +
      '`detail` carries the diagnostic.',
    429:
      'A fairness limit: the project’s hourly SQL quota is spent, or too many queries of the tenant (or of all ' +
      'tenants) are running. Retry after Retry-After.',
    500: 'The analytics database is unreachable or failing (infrastructure); retryable, with Retry-After.',
    503: 'The project’s analytics view was missing and could not be rebuilt yet; retry after Retry-After.',
  },
  handler: async ({ body, requireProject, services, principal, res }) => {
    const projectId = requireProject(body.project_id.toLowerCase());
    const sandbox = await services.sqlSandbox();
    // The client going away (socket closed before the answer ended) stops the query in ClickHouse.
    const clientGone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) clientGone.abort();
    };
    res.on('close', onClose);
    let outcome: SqlQueryOutcome = 'failed';
    try {
      const stream = await sandbox.open(
        {
          tenantId: principal.tenantId,
          projectId,
          sql: body.sql,
          limit: body.limit,
          retainedDays: await retainedWindow(services, projectId),
        },
        { signal: clientGone.signal },
      );
      await writeRows(res, stream, clientGone.signal);
      outcome = 'ok';
    } catch (error) {
      outcome = queryOutcome(error, clientGone.signal);
      if (res.headersSent || error instanceof SqlQueryCancelled || clientGone.signal.aborted) {
        // Nothing sensible can be said any more: cut the body so it never parses as complete.
        if (!(error instanceof SqlQueryCancelled) && !clientGone.signal.aborted) {
          services.logger.warn({ err: error }, 'sql query failed after its answer started');
        }
        res.destroy();
        return;
      }
      throw toQueryProblem(error, services);
    } finally {
      res.off('close', onClose);
      services.metrics.sqlQueries.inc({ outcome });
    }
  },
});

/** How a query that did not complete is counted (framedeck_sql_queries_total). */
function queryOutcome(error: unknown, clientGone: AbortSignal): SqlQueryOutcome {
  if (error instanceof SqlQueryCancelled || clientGone.aborted) return 'cancelled';
  if (error instanceof SqlRejection) return 'rejected';
  if (error instanceof SqlQuotaExceeded) return 'limited';
  if (error instanceof SqlSandboxUnavailable) return 'unavailable';
  return 'failed';
}

const ROWS_OPEN = Buffer.from('{"success":true,"data":{"rows":[');
const COMMA = Buffer.from(',');

/**
 * Writes `{"success":true,"data":{"rows":[…],"rowCount":n,"truncated":b}}` with the rows'
 * bytes exactly as ClickHouse wrote them (no parse, no serialisation per row), waiting for the
 * socket to drain so a slow client slows the query instead of filling the API's memory.
 */
async function writeRows(res: Response, stream: SqlRowStream, clientGone: AbortSignal): Promise<void> {
  let batch: Buffer[] = [ROWS_OPEN];
  let batchBytes = ROWS_OPEN.length;
  let committed = false;
  const flush = async () => {
    const bytes = Buffer.concat(batch, batchBytes);
    batch = [];
    batchBytes = 0;
    if (!committed) {
      committed = true;
      res.status(200).type('application/json');
    }
    if (!res.write(bytes)) await once(res, 'drain', { signal: clientGone });
  };
  try {
    let first = true;
    for await (const row of stream.rows) {
      if (!first) {
        batch.push(COMMA);
        batchBytes += 1;
      }
      first = false;
      batch.push(row);
      batchBytes += row.length;
      if (batchBytes >= (committed ? WRITE_BATCH_BYTES : COMMIT_BYTES)) await flush();
    }
  } finally {
    await stream.close();
  }
  const tail = Buffer.from(`],"rowCount":${stream.outcome.rowCount},"truncated":${stream.outcome.truncated}}}`);
  batch.push(tail);
  batchBytes += tail.length;
  if (!committed) {
    res.status(200).type('application/json').end(Buffer.concat(batch, batchBytes));
    return;
  }
  await flush();
  res.end();
}
/** The spec: a rejected query is 400 with the diagnostic; only infrastructure failure is 500. */
function toQueryProblem(error: unknown, services: ApiServices): unknown {
  if (error instanceof SqlRejection) return problems.badRequest(error.message);
  if (error instanceof SqlQuotaExceeded) return problems.tooManyRequests(error.message, error.retryAfterSeconds);
  if (error instanceof SqlSandboxUnavailable) {
    services.logger.warn({ err: error.cause ?? error }, 'sql sandbox unavailable');
    return new ApiProblem(error.status, error.message, { retryAfterSeconds: 5, retryable: true });
  }
  return error;
}
