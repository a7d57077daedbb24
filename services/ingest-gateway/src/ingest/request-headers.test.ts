import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import type { IngestError } from '../http/ingest-error.js';
import { parseIngestHeaders } from './request-headers.js';

const valid = {
  'x-api-key': 'fd_key',
  'content-type': 'application/x-protobuf',
  'content-length': '10',
  'x-sdk-version': 'unity/1.0',
};
const parse = (headers: Record<string, string | undefined>) =>
  parseIngestHeaders({ headers } as unknown as http.IncomingMessage);
const statusOf = (headers: Record<string, string | undefined>) => {
  try {
    parse(headers);
    return 'ok';
  } catch (error) {
    return (error as IngestError).status;
  }
};

describe('ingest request headers', () => {
  it('accepts the spec headers, with or without gzip and an Idempotency-Key', () => {
    expect(parse(valid)).toEqual({
      apiKey: 'fd_key',
      sdkVersion: 'unity/1.0',
      contentLength: 10,
      gzip: false,
      idempotencyKey: undefined,
    });
    const key = '6F1D2B61-0A3B-4E0B-8F3E-2A7C7D1E4F52';
    expect(parse({ ...valid, 'content-encoding': 'gzip', 'idempotency-key': key })).toMatchObject({
      gzip: true,
      idempotencyKey: key.toLowerCase(),
    });
    expect(statusOf({ ...valid, 'content-type': 'application/x-protobuf; charset=binary' })).toBe('ok');
  });

  it.each([
    ['no key', { 'x-api-key': undefined }, 401],
    ['a JSON content type', { 'content-type': 'application/json' }, 415],
    ['no content type', { 'content-type': undefined }, 415],
    ['a br encoding', { 'content-encoding': 'br' }, 415],
    ['no Content-Length', { 'content-length': undefined }, 411],
    ['a non-numeric Content-Length', { 'content-length': '1e3' }, 400],
    ['126,001 bytes', { 'content-length': '126001' }, 413],
    ['no SDK version', { 'x-sdk-version': undefined }, 400],
    ['a blank SDK version', { 'x-sdk-version': '  ' }, 400],
    ['an Idempotency-Key that is not a UUID', { 'idempotency-key': 'abc' }, 400],
  ])('refuses %s', (_, override, status) => {
    expect(statusOf({ ...valid, ...override })).toBe(status);
  });

  it('allows exactly 126,000 bytes', () => {
    expect(statusOf({ ...valid, 'content-length': '126000' })).toBe('ok');
  });
});
