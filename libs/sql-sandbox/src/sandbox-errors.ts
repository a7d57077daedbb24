/**
 * The three ways a sandboxed query can fail, as the API must tell them apart:
 *  - SqlRejection: the query itself was refused (our checks, or ClickHouse's diagnostic:
 *    unknown column, syntax error, type mismatch, a resource limit, the time limit) → 400,
 *    not retryable;
 *  - SqlQuotaExceeded: a fairness limit: the project used up its hourly ClickHouse quota, or
 *    its tenant (or every tenant together) already has the most queries running → 429 with
 *    Retry-After;
 *  - SqlSandboxUnavailable: ClickHouse unreachable or failing (500), or the project's
 *    database could not be rebuilt (503); retryable.
 * Messages are written for the analyst and never carry host names, other databases or stacks.
 */
export class SqlRejection extends Error {
  override readonly name = 'SqlRejection';
  constructor(
    message: string,
    /** 'check': refused before reaching ClickHouse; 'clickhouse': ClickHouse's own diagnostic. */
    readonly source: 'check' | 'clickhouse' = 'check',
  ) {
    super(message);
  }
}

export class SqlQuotaExceeded extends Error {
  override readonly name = 'SqlQuotaExceeded';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export class SqlSandboxUnavailable extends Error {
  override readonly name = 'SqlSandboxUnavailable';
  /**
   * 500: infrastructure failure (ClickHouse unreachable, login refused, server error).
   * 503: the project's database or view is missing and recreating it did not help (yet).
   */
  readonly status: 500 | 503;
  constructor(message: string, options?: { cause?: unknown; status?: 500 | 503 }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = options?.status ?? 500;
  }
}

/** ClickHouse said the project's database or its `events` view does not exist (dropped under us). */
export class ProjectDatabaseMissing extends SqlSandboxUnavailable {
  constructor(options?: { cause?: unknown }) {
    super('The project’s analytics view is being rebuilt; try again shortly.', { ...options, status: 503 });
  }
}

/** The caller went away (its signal aborted) and the query was stopped; nobody is left to answer. */
export class SqlQueryCancelled extends Error {
  override readonly name = 'SqlQueryCancelled';
  constructor(options?: { cause?: unknown }) {
    super('The query was cancelled.', options);
  }
}

export function reject(message: string): never {
  throw new SqlRejection(message);
}
