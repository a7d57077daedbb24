import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { Registry } from 'prom-client';

export type MetricsListenerOptions = {
  host: string;
  port: number;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  token?: string;
  registry: Registry;
  /** Told when the port cannot be bound (the service keeps running without metrics). */
  logger: { error: (details: { err: string }, message: string) => void };
};

/**
 * The metrics listener: GET /metrics on a port of its own (see metricsSection: loopback by
 * default, a bearer token off loopback), nothing else. It is never the public API or ingest
 * port, so a reverse proxy exposing those to the internet does not expose metrics.
 * NOTE: a port that cannot be bound is reported and the service goes on without metrics:
 * losing observability must not stop ingest; Prometheus shows the target as down.
 */
export function startMetricsListener(options: MetricsListenerOptions): Promise<http.Server> {
  const expected = options.token === undefined ? undefined : digest(options.token);
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return answer(res, 404, 'not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, 'use GET\n', { allow: 'GET' });
    if (expected && !bearerMatches(req.headers.authorization, expected)) {
      return answer(res, 401, 'unauthorized\n', { 'www-authenticate': 'Bearer realm="metrics"' });
    }
    options.registry.metrics().then(
      (text) => answer(res, 200, text, { 'content-type': options.registry.contentType }),
      () => answer(res, 500, 'metrics unavailable\n'),
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return new Promise((resolve) => {
    server.once('error', (error) => {
      options.logger.error({ err: error.message }, 'metrics listener could not start: this process serves no /metrics');
      resolve(server);
    });
    server.listen(options.port, options.host, () => resolve(server));
  });
}

function answer(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(body);
}

/** Compared as digests, in constant time: neither the token's length nor its bytes leak through timing. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer ([^\s]+)$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
