import type http from 'node:http';

/**
 * A refusal of an ingest request. The ingest error shape is the spec's `{"error": "..."}`
 * only (not problem+json); messages are for humans and never echo credentials.
 */
export class IngestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'IngestError';
  }
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(body);
}

export function sendError(res: http.ServerResponse, error: IngestError, closeConnection = false): void {
  const headers = closeConnection ? { ...error.headers, connection: 'close' } : error.headers;
  sendJson(res, error.status, JSON.stringify({ error: error.message }), headers);
}
