/**
 * The three ways a sandboxed query can fail, as the API must tell them apart:
 *  - SqlRejection: the query itself was refused (our checks, or ClickHouse's diagnostic:
 *    unknown column, syntax error, type mismatch, a resource limit) → 400, not retryable;
 *  - SqlQuotaExceeded: the project used up its hourly ClickHouse quota → 429, retryable;
 *  - SqlSandboxUnavailable: ClickHouse unreachable, overloaded or failing → 500, retryable.
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
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export function reject(message: string): never {
  throw new SqlRejection(message);
}
