import { openConnection, type ClickHouseWriter } from '@framedeck/clickhouse';
import type { ClickHouseConfig } from '@framedeck/config';
import { toSandboxFailure } from './clickhouse-diagnostic.js';
import { ProjectDatabases } from './project-database.js';
import { reject, SqlQuotaExceeded, SqlSandboxUnavailable } from './sandbox-errors.js';
import { checkAnalystQuery, loadSqlChecker } from './sql-checker.js';

/** Rows returned when the caller gives no limit, and the most it may ask for. */
export const DEFAULT_ROW_LIMIT = 1_000;
export const MAX_ROW_LIMIT = 10_000;
/**
 * Queries of one project running at once in this process. The sandbox user may run 8 at once
 * in all (users.xml); without a per-project cap one project could hold every slot.
 */
export const MAX_CONCURRENT_QUERIES_PER_PROJECT = 2;

export type SqlQueryRequest = { projectId: string; sql: string; limit?: number };
export type SqlQueryResult = {
  rows: Record<string, unknown>[];
  /** Number of rows returned (at most the limit). */
  rowCount: number;
  /** True when the query produced more rows than the limit and the rest were not read. */
  truncated: boolean;
};

export type SqlSandboxOptions = {
  clickhouse: ClickHouseConfig;
  /** The admin client: creates each project's database and view (the sandbox user cannot). */
  admin: ClickHouseWriter;
};

/**
 * Runs an analyst's raw SQL against one project's events, behind these walls:
 *  1. the parser check (sql-checker): one SELECT over `events`, allow-listed functions only;
 *  2. the project database: `events` is a view of this project's rows only, and is the
 *     default database of the query;
 *  3. the ClickHouse user: read-only, resource-limited profile, hourly quota. On modern
 *     servers it is the project's own user, granted SELECT on that view and nothing else (a
 *     server-side wall that holds even if the parser check let something through); on 18.16
 *     it is the shared sandbox user, whose quota is keyed by project.
 * The text ClickHouse receives is exactly the text that was checked (never rewritten).
 */
export class SqlSandbox {
  private readonly databases: ProjectDatabases;
  private readonly running = new Map<string, number>();

  private constructor(private readonly options: SqlSandboxOptions) {
    this.databases = new ProjectDatabases(options.admin, options.clickhouse.database, options.clickhouse.sandbox);
  }

  /** Loads the SQL parser (WebAssembly) once; queries can run as soon as this resolves. */
  static async create(options: SqlSandboxOptions): Promise<SqlSandbox> {
    await loadSqlChecker();
    return new SqlSandbox(options);
  }

  async run(request: SqlQueryRequest): Promise<SqlQueryResult> {
    const limit = request.limit ?? DEFAULT_ROW_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ROW_LIMIT) {
      reject(`limit must be an integer from 1 to ${MAX_ROW_LIMIT}.`);
    }
    const checked = checkAnalystQuery(request.sql);
    // NOTE: counted before the first await, so concurrent calls always see each other.
    const active = this.running.get(request.projectId) ?? 0;
    if (active >= MAX_CONCURRENT_QUERIES_PER_PROJECT) {
      throw new SqlQuotaExceeded(
        `At most ${MAX_CONCURRENT_QUERIES_PER_PROJECT} SQL queries of a project run at once; retry when one has finished.`,
        1,
      );
    }
    this.running.set(request.projectId, active + 1);
    try {
      return await this.execute(request.projectId, checked.text, limit);
    } finally {
      const left = (this.running.get(request.projectId) ?? 1) - 1;
      if (left > 0) this.running.set(request.projectId, left);
      else this.running.delete(request.projectId);
    }
  }

  private async execute(projectId: string, text: string, limit: number): Promise<SqlQueryResult> {
    const project = await this.databases.ensure(projectId).catch((error: unknown) => {
      throw new SqlSandboxUnavailable('The analytics database is unavailable; try again shortly.', { cause: error });
    });
    const context = { projectDatabase: project.database, sharedDatabase: this.options.clickhouse.database };
    const client = openConnection({
      url: this.options.clickhouse.url,
      ...project,
      requestTimeoutMs: 30_000,
      quiet: true,
    });
    try {
      const resultSet = await client.query({
        query: text,
        format: 'JSONEachRow',
        // quota_key is an HTTP parameter, accepted in readonly mode: each project gets its
        // own bucket of the sandbox quota (infra/clickhouse/users.xml) instead of sharing one.
        clickhouse_settings: { quota_key: projectId },
      });
      return await readRows(resultSet.stream(), limit);
    } catch (error) {
      const failure = toSandboxFailure(error, context);
      if (failure instanceof SqlSandboxUnavailable) this.databases.forget(projectId);
      throw failure;
    } finally {
      await client.close();
    }
  }
}

/**
 * Reads at most limit + 1 rows of the streamed result, then stops (leaving the loop destroys
 * the response stream, and ClickHouse cancels the query when it can no longer write).
 * NOTE: the limit is applied here rather than in SQL: wrapping the analyst's text would mean
 * sending text other than what was checked, and readonly=1 forbids per-query overrides of
 * max_result_rows. ClickHouse reports an error that happens after the first rows were sent
 * (e.g. a result larger than the profile's max_result_rows) as a text line in the body.
 */
export async function readRows(stream: AsyncIterable<{ text: string }[]>, limit: number): Promise<SqlQueryResult> {
  const rows: Record<string, unknown>[] = [];
  read: for await (const batch of stream) {
    for (const row of batch) {
      if (row.text === '') continue;
      rows.push(parseRow(row.text));
      if (rows.length > limit) break read;
    }
  }
  const truncated = rows.length > limit;
  if (truncated) rows.length = limit;
  return { rows, rowCount: rows.length, truncated };
}

function parseRow(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not a row: an exception ClickHouse 18.16 wrote into the stream after the headers were
    // sent ("Code: 396, e.displayText() = …"). Newer servers tag it (X-ClickHouse-Exception-Tag)
    // and @clickhouse/client raises it from the stream itself.
    throw new Error(text);
  }
}
