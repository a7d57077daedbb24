import { describe, expect, it } from 'vitest';
import { apiErrorFrom, formatWait, retryAfterFrom } from './api-error';

describe('API errors', () => {
  it('reads a 429 problem document with its Retry-After', () => {
    const error = apiErrorFrom(429, new Headers({ 'retry-after': '754' }), {
      type: 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: 'Rate limit of 100 requests per hour exceeded.',
      error_category: 'rate_limit',
      retryable: true,
    });
    expect(error.isRateLimited).toBe(true);
    expect(error.retryAfterSeconds).toBe(754);
    expect(error.message).toBe('Rate limit of 100 requests per hour exceeded.');
    expect(error.category).toBe('rate_limit');
  });

  it('accepts the {success:false, error} shape and bodies that are not JSON', () => {
    expect(apiErrorFrom(400, new Headers(), { success: false, error: 'bad mapId' }).message).toBe('bad mapId');
    expect(apiErrorFrom(502, new Headers(), undefined).message).toContain('502');
  });

  it('takes Retry-After as seconds or an HTTP date, else the body retry_after', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterFrom('30', undefined, now)).toBe(30);
    expect(retryAfterFrom('Thu, 01 Jan 2026 00:02:00 GMT', undefined, now)).toBe(120);
    expect(retryAfterFrom(null, 12.2, now)).toBe(13);
    expect(retryAfterFrom('soon', 'x', now)).toBeUndefined();
  });

  it('says how long to wait in words', () => {
    expect(formatWait(42)).toBe('42 s');
    expect(formatWait(185)).toBe('3 min 5 s');
    expect(formatWait(3600)).toBe('1 h');
    expect(formatWait(3720)).toBe('1 h 2 min');
  });
});
