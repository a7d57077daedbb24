import { describe, expect, it } from 'vitest';
import { PlanLimitError } from '@framedeck/accounts';
import { ApiProblem } from '@framedeck/problem';
import { toProblem } from './problem.middleware.js';

const statusOf = (error: unknown) => toProblem(error)?.status;

describe('toProblem', () => {
  it('keeps ApiProblems as they are', () => {
    const problem = new ApiProblem(409, 'Taken.');
    expect(toProblem(problem)).toBe(problem);
  });

  it.each([
    ['entity.parse.failed', 400, 400],
    ['entity.too.large', 413, 413],
    ['encoding.unsupported', 415, 415],
    ['charset.unsupported', 415, 415],
    ['request.aborted', 400, 400],
  ])('body-parser %s → %i', (type, status, expected) => {
    expect(statusOf(Object.assign(new Error('raw parser text'), { type, status }))).toBe(expected);
    expect(toProblem(Object.assign(new Error('raw parser text'), { type, status }))?.detail).not.toContain('raw');
  });

  it('a plan limit is 403 authorization', () => {
    const problem = toProblem(new PlanLimitError('The Free plan allows 2 active API keys per project.'));
    expect(problem?.toDocument()).toMatchObject({ status: 403, error_category: 'authorization' });
  });

  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' })],
    ['Postgres shutting down', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    ['Postgres connection failure', Object.assign(new Error('x'), { code: '08006' })],
    ['pool timeout', new Error('timeout exceeded when trying to connect')],
    ['both of a dual-stack connect', new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })])],
  ])('an outage (%s) is a retryable 503 naming no host', (_name, error) => {
    const doc = toProblem(error)!.toDocument();
    expect(doc).toMatchObject({ status: 503, retryable: true });
    expect(JSON.stringify(doc)).not.toMatch(/10\.0\.0\.5|ECONN/);
  });

  it.each([
    ['a query error', Object.assign(new Error('syntax error at or near "x"'), { code: '42601' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ])('%s is not mapped (→ generic 500)', (_name, error) => {
    expect(toProblem(error)).toBeUndefined();
  });
});
