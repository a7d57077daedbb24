import { describe, expect, it } from 'vitest';
import { ApiProblem, problemDocument, problems } from './index.js';

describe('problem documents', () => {
  it('carries both the RFC 9457 members and the success/error shape', () => {
    expect(problems.notFound('No such project.').toDocument()).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'No such project.',
      error_category: 'not_found',
      retryable: false,
      success: false,
      error: 'No such project.',
    });
  });

  it.each([
    [400, 'validation', false],
    [401, 'authentication', false],
    [403, 'authorization', false],
    [409, 'conflict', false],
    [413, 'payload', false],
    [415, 'payload', false],
    [429, 'rate_limit', true],
    [500, 'internal', false],
    [503, 'internal', true],
  ] as const)('status %i is category %s, retryable %s', (status, category, retryable) => {
    const doc = problemDocument(status, 'x');
    expect(doc.error_category).toBe(category);
    expect(doc.retryable).toBe(retryable);
  });

  it('lets an infrastructure 500 say that a retry may succeed', () => {
    expect(new ApiProblem(500, 'down', { retryable: true, retryAfterSeconds: 5 }).toDocument()).toMatchObject({
      status: 500,
      error_category: 'internal',
      retryable: true,
      retry_after: 5,
    });
  });

  it('adds retry_after when given', () => {
    expect(problems.tooManyRequests('slow down', 120).toDocument().retry_after).toBe(120);
    expect(new ApiProblem(503, 'down').toDocument().retry_after).toBeUndefined();
  });
});
