import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { openConnection, sql, type ClickHouseWriter } from '@framedeck/clickhouse';
import type { ClickHouseConfig } from '@framedeck/config';
import { toSandboxFailure } from './clickhouse-diagnostic.js';
import { ProjectDatabases } from './project-database.js';
import type { HourlyQuota } from './hourly-quota.js';
import { LocalAdmission, type QueryAdmission } from './query-admission.js';
import { jsonEachRowBytes, type RowsOutcome } from './result-rows.js';
import {
  ProjectDatabaseMissing,
  reject,
  SqlQueryCancelled,
  SqlRejection,
  SqlSandboxUnavailable,
} from './sandbox-errors.js';
import { checkAnalystQuery, loadSqlChecker } from './sql-checker.js';

/** Rows returned when the caller gives no limit, and the most it may ask for. */
export const DEFAULT_ROW_LIMIT = 1_000;
export const MAX_ROW_LIMIT = 10_000;
/**
 * Most bytes of row JSON one answer carries (the rows' text as ClickHouse wrote it). Rows past
 * it are not sent and `truncated` is true, as for `limit`; a first row alone larger than this is
 * refused (400). It bounds what one query costs the API process and the client.
 */
export const MAX_RESULT_BYTES = 16 * 1024 * 1024;
/**
 * How long the API waits for a sandbox query, start to last row. ClickHouse stops a query at
 * the profile's max_execution_time (10 s), but only between blocks, so one block of work can
 * overrun it; past this deadline the API gives up and kills the query (KILL QUERY by its id).
 */
export const QUERY_DEADLINE_MS = 15_000;
/** A slot's lease outlives the deadline a little, for the kill and the release to happen. */
const LEASE_MARGIN_MS = 5_000;

export type SqlQueryRequest = {
  /** Whose slot the query takes (admission control: at most N queries per tenant at once). */
  tenantId: string;
  projectId: string;
  sql: string;
  limit?: number;
  /** Days of events `events` shows (the project's retention); none: every stored event. */
  retainedDays?: number;
};
export type SqlQueryResult = {
  rows: Record<string, unknown>[];
  /** Number of rows returned (at most the limit). */
  rowCount: number;
  /** True when the query produced more rows than the limit (or than MAX_RESULT_BYTES) and the rest were not read. */
  truncated: boolean;
};

export type SqlRunOptions = {
  /** Aborting it (the HTTP client went away) stops the query in ClickHouse too. */
  signal?: AbortSignal;
};

/**
 * A running query's rows, as bytes: each yielded Buffer is one row's JSON object exactly as
 * ClickHouse wrote it (never parsed here). `outcome` is complete once `rows` is exhausted.
 * Iterating to the end, breaking out, or calling `close()` ends the query and frees its slot.
 */
export type SqlRowStream = {
  queryId: string;
  rows: AsyncIterable<Buffer>;
  readonly outcome: Readonly<RowsOutcome>;
  close: () => Promise<void>;
};

export type SqlSandboxOptions = {
  clickhouse: ClickHouseConfig;
  /** The admin client: creates each project's database and view (the sandbox users cannot), kills queries. */
  admin: ClickHouseWriter;
  /** Where concurrent queries are counted. Default: this process only (LocalAdmission). */
  admission?: QueryAdmission;
  /** Where each project's hourly budget is counted across instances and nodes. Default: ClickHouse's own quota only. */
  hourlyQuota?: HourlyQuota;
  /** Default QUERY_DEADLINE_MS. */
  deadlineMs?: number;
  /** Default MAX_RESULT_BYTES. */
  maxResultBytes?: number;
  /** Told about failures that do not reach the caller (a KILL QUERY that failed). */
  onWarning?: (message: string, error: unknown) => void;
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
  private readonly admission: QueryAdmission;
  private readonly deadlineMs: number;
  private readonly maxResultBytes: number;

  private constructor(private readonly options: SqlSandboxOptions) {
    this.databases = new ProjectDatabases(options.admin, options.clickhouse.database, options.clickhouse.sandbox);
    this.admission = options.admission ?? new LocalAdmission();
    this.deadlineMs = options.deadlineMs ?? QUERY_DEADLINE_MS;
    this.maxResultBytes = options.maxResultBytes ?? MAX_RESULT_BYTES;
  }

  /** Loads the SQL parser (WebAssembly) once; queries can run as soon as this resolves. */
  static async create(options: SqlSandboxOptions): Promise<SqlSandbox> {
    await loadSqlChecker();
    return new SqlSandbox(options);
  }

  /** Runs the query and returns its rows as objects (library callers, tests). */
  async run(request: SqlQueryRequest, options: SqlRunOptions = {}): Promise<SqlQueryResult> {
    const stream = await this.open(request, options);
    const rows: Record<string, unknown>[] = [];
    for await (const row of stream.rows) rows.push(JSON.parse(row.toString('utf8')) as Record<string, unknown>);
    return { rows, rowCount: rows.length, truncated: stream.outcome.truncated };
  }

  /**
   * Checks the query, takes an admission slot, and starts it in ClickHouse; resolves once
   * ClickHouse answered (errors it reports before the first row reject here, as one of the
   * three sandbox failures). The rows then stream as bytes.
   */
  async open(request: SqlQueryRequest, options: SqlRunOptions = {}): Promise<SqlRowStream> {
    const limit = request.limit ?? DEFAULT_ROW_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ROW_LIMIT) {
      reject(`limit must be an integer from 1 to ${MAX_ROW_LIMIT}.`);
    }
    const checked = checkAnalystQuery(request.sql, { lambdaCallsByName: await this.resolvesLambdaCalls() });
    const queryId = randomUUID();
    const slot = await this.admission.acquire(request.tenantId, queryId, this.deadlineMs + LEASE_MARGIN_MS);
    const quota = this.options.hourlyQuota;
    await quota?.admit(request.projectId).catch(async (error: unknown) => {
      await slot.release();
      throw error;
    });
    const startedAt = performance.now();
    /** Frees the slot and adds what the query spent to its project's hour. */
    const finish = async (failed: boolean) => {
      await slot.release();
      await quota?.record(request.projectId, { failed, seconds: (performance.now() - startedAt) / 1000 });
    };
    const run = new RunningQuery(queryId, this.deadlineMs, options.signal, (id) => this.kill(id));
    try {
      const body = await this.start(request, checked.text, run).catch(async (error: unknown) => {
        // The view vanished (dropped under us): rebuild it and try once more.
        if (!(error instanceof ProjectDatabaseMissing)) throw error;
        this.databases.forget(request.projectId);
        return this.start(request, checked.text, run);
      });
      return this.rowStream(run, body, limit, finish);
    } catch (error) {
      run.finish();
      await finish(true);
      throw error;
    }
  }

  /** Sends the query; resolves with the response body once ClickHouse answered 200. */
  private async start(
    { projectId, retainedDays }: SqlQueryRequest,
    text: string,
    run: RunningQuery,
  ): Promise<ResponseBody> {
    const project = await this.databases.ensure(projectId, retainedDays).catch((error: unknown) => {
      throw databaseUnavailable(error);
    });
    const context = { projectDatabase: project.database, sharedDatabase: this.options.clickhouse.database };
    const client = openConnection({
      url: this.options.clickhouse.url,
      ...project,
      // Our own deadline (RunningQuery) decides; the client's timeout only backs it up.
      requestTimeoutMs: this.deadlineMs + LEASE_MARGIN_MS,
      quiet: true,
    });
    try {
      const result = await client.exec({
        // The checked text, then the output format (the checker refuses FORMAT in the text).
        query: `${text}\nFORMAT JSONEachRow`,
        query_id: run.queryId,
        abort_signal: run.signal,
        // quota_key is an HTTP parameter, accepted in readonly mode: each project gets its
        // own bucket of the sandbox quota (infra/clickhouse/users.xml) instead of sharing one.
        clickhouse_settings: { quota_key: projectId },
      });
      return { stream: result.stream, context, close: () => client.close() };
    } catch (error) {
      await client.close();
      throw run.failure(toSandboxFailure(error, context), error);
    }
  }

  private rowStream(
    run: RunningQuery,
    body: ResponseBody,
    limit: number,
    finish: (failed: boolean) => Promise<void>,
  ): SqlRowStream {
    const outcome: RowsOutcome = { rowCount: 0, bytes: 0, truncated: false };
    let closed = false;
    let failed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      // Stopped before ClickHouse finished (limit reached, client gone): stop it there too.
      if (!body.stream.readableEnded) {
        body.stream.destroy();
        run.cancel();
      }
      run.finish();
      await Promise.all([body.close(), finish(failed)]);
    };
    const maxBytes = this.maxResultBytes;
    async function* rows(): AsyncGenerator<Buffer> {
      try {
        yield* jsonEachRowBytes(body.stream as AsyncIterable<Buffer>, { maxRows: limit, maxBytes }, outcome);
        if (outcome.cutBy === 'bytes' && outcome.rowCount === 0) {
          reject(`The first row of the result is larger than the ${maxBytes} bytes an answer may carry.`);
        }
      } catch (error) {
        failed = true;
        throw run.failure(toSandboxFailure(error, body.context), error);
      } finally {
        await close();
      }
    }
    return { queryId: run.queryId, rows: rows(), outcome, close };
  }

  /**
   * Whether the server resolves `f(…)` to a WITH lambda named f (the modern engine's analyzer)
   * rather than to its own function f (18.16): see CheckOptions.lambdaCallsByName.
   */
  private async resolvesLambdaCalls(): Promise<boolean> {
    const engine = await this.options.admin.engine().catch((error: unknown) => {
      throw databaseUnavailable(error);
    });
    return engine.generation === 'modern';
  }

  /** KILL QUERY through the admin account (the sandbox users cannot kill anything). */
  private async kill(queryId: string): Promise<void> {
    try {
      await this.options.admin.command(sql`KILL QUERY WHERE query_id = ${queryId} ASYNC`);
    } catch (error) {
      this.options.onWarning?.('KILL QUERY of a sandbox query failed', error);
    }
  }
}

function databaseUnavailable(cause: unknown): SqlSandboxUnavailable {
  return new SqlSandboxUnavailable('The analytics database is unavailable; try again shortly.', { cause });
}

type ResponseBody = {
  stream: Readable;
  context: { projectDatabase: string; sharedDatabase: string };
  close: () => Promise<void>;
};

/**
 * One query's life in the API: its id, its deadline, and who may stop it. When the deadline
 * passes or the caller's signal aborts, the HTTP request to ClickHouse is aborted and the
 * query killed by id (18.16 goes on computing after its client left until it next writes;
 * KILL QUERY stops it at the next block on both engines).
 */
class RunningQuery {
  readonly queryId: string;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private reason: 'deadline' | 'caller' | undefined;
  private killed = false;
  private readonly onCallerAbort = () => this.stop('caller');

  constructor(
    queryId: string,
    private readonly deadlineMs: number,
    private readonly callerSignal: AbortSignal | undefined,
    private readonly killQuery: (queryId: string) => Promise<void>,
  ) {
    this.queryId = queryId;
    this.timer = setTimeout(() => this.stop('deadline'), deadlineMs);
    this.timer.unref();
    if (callerSignal?.aborted) this.stop('caller');
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Ends the query in ClickHouse (no-op if it already finished there). */
  cancel(): void {
    if (this.killed) return;
    this.killed = true;
    void this.killQuery(this.queryId);
  }

  /** The query is over for us: no deadline any more. */
  finish(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  /** What the caller is told when the query failed: our own stop explains a client-side abort. */
  failure(mapped: Error, original: unknown): Error {
    if (this.reason === 'deadline') {
      return new SqlRejection(
        `The query did not finish within ${this.deadlineMs / 1_000} s and was stopped; ` +
          'make it read fewer rows or do less work per row.',
        'clickhouse',
      );
    }
    if (this.reason === 'caller') return new SqlQueryCancelled({ cause: original });
    return mapped;
  }

  private stop(reason: 'deadline' | 'caller'): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller.abort();
    this.cancel();
  }
}
