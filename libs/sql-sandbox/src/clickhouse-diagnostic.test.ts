import { describe, expect, it } from 'vitest';
import { cleanDiagnostic, toSandboxFailure } from './clickhouse-diagnostic.js';
import { ProjectDatabaseMissing, SqlQuotaExceeded, SqlRejection } from './sandbox-errors.js';

const context = { projectDatabase: 'fd_p_0123456789abcdef0123456789abcdef', sharedDatabase: 'framedeck' };
const serverError = (text: string) => new Error(text);

describe('toSandboxFailure', () => {
  it('returns ClickHouse diagnostics about the query as rejections (18.16 and modern forms)', () => {
    const old = toSandboxFailure(
      serverError(
        'Code: 47, e.displayText() = DB::Exception: Unknown identifier: project_id, e.what() = DB::Exception',
      ),
      context,
    );
    expect(old).toBeInstanceOf(SqlRejection);
    expect(old.message).toBe('ClickHouse: Unknown identifier: project_id');
    const modern = toSandboxFailure(
      serverError(
        "Code: 47. DB::Exception: Missing columns: 'project_id' while processing query: 'SELECT project_id FROM fd_p_0123456789abcdef0123456789abcdef.events', required columns: 'project_id'. (UNKNOWN_IDENTIFIER) (version 23.8.1.1)",
      ),
      context,
    );
    expect(modern).toBeInstanceOf(SqlRejection);
    expect(modern.message).toBe("ClickHouse: Missing columns: 'project_id'");
  });

  it('treats resource limits as the query’s fault', () => {
    const failure = toSandboxFailure(
      serverError(
        'Code: 241, e.displayText() = DB::Exception: Memory limit (for query) exceeded: would use 1.00 GiB, e.what() = DB::Exception',
      ),
      context,
    );
    expect(failure).toBeInstanceOf(SqlRejection);
  });

  it('reports an unreachable server as unavailability (500)', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' });
    expect(toSandboxFailure(refused, context)).toMatchObject({ name: 'SqlSandboxUnavailable', status: 500 });
    expect(toSandboxFailure(new Error('socket hang up'), context)).toMatchObject({ status: 500 });
  });

  it('tells a vanished project database or view (503 after the sandbox retried) from a name the analyst wrote', () => {
    for (const text of [
      `Code: 81, e.displayText() = DB::Exception: Database ${context.projectDatabase} doesn't exist`,
      `Code: 60, e.displayText() = DB::Exception: Table ${context.projectDatabase}.events doesn't exist.`,
    ]) {
      const failure = toSandboxFailure(serverError(text), context);
      expect(failure).toBeInstanceOf(ProjectDatabaseMissing);
      expect(failure).toMatchObject({ status: 503 });
    }
    const smuggled = toSandboxFailure(
      serverError("Code: 81, e.displayText() = DB::Exception: Database fd_p_0123 doesn't exist"),
      context,
    );
    expect(smuggled).toBeInstanceOf(SqlRejection);
  });

  it('answers a full engine (too many simultaneous queries) as a fairness limit with a retry delay, not a failure', () => {
    const failure = toSandboxFailure(
      serverError('Code: 202, e.displayText() = DB::Exception: Too many simultaneous queries'),
      context,
    );
    expect(failure).toBeInstanceOf(SqlQuotaExceeded);
    expect((failure as SqlQuotaExceeded).retryAfterSeconds).toBeGreaterThan(0);
  });

  it('reports a spent quota separately, with a retry delay', () => {
    const failure = toSandboxFailure(
      serverError('Code: 201, e.displayText() = DB::Exception: Quota for user exceeded'),
      context,
    );
    expect(failure).toBeInstanceOf(SqlQuotaExceeded);
    expect((failure as SqlQuotaExceeded).retryAfterSeconds).toBeGreaterThan(0);
  });

  it('treats another missing table (a WITH name on 18.16) as the query’s fault', () => {
    const failure = toSandboxFailure(
      serverError(
        `Code: 60, e.displayText() = DB::Exception: Table ${context.projectDatabase}.finishers doesn't exist.`,
      ),
      context,
    );
    expect(failure).toBeInstanceOf(SqlRejection);
    expect(failure.message).toBe("ClickHouse: Table finishers doesn't exist.");
  });
});

describe('cleanDiagnostic', () => {
  it('removes database names, stack traces, versions and client addresses', () => {
    const text = cleanDiagnostic(
      'Table `framedeck`.events and fd_p_0123456789abcdef0123456789abcdef.x failed (from [::1]:51234) (version 24.1.1) Stack trace:\n0. DB::Exception',
      context,
    );
    expect(text).toBe('Table events and x failed');
  });

  it('does not touch names that merely start with the shared database name', () => {
    expect(cleanDiagnostic('Unknown identifier: framedeck_thing.x', context)).toBe(
      'Unknown identifier: framedeck_thing.x',
    );
  });

  it('caps very long messages', () => {
    expect(cleanDiagnostic('x'.repeat(5_000), context).length).toBeLessThanOrEqual(1_001);
  });
});
