import http from 'node:http';
import net from 'node:net';

/** A named dependency probe: resolves when the dependency answers, rejects otherwise. */
export type HealthChecks = Readonly<Record<string, () => Promise<unknown>>>;

export type ReadinessReport = {
  status: 'ok' | 'unavailable';
  checks: Record<string, 'ok' | string>;
};

/** Runs every probe in parallel, each bounded by `timeoutMs`, and reports them by name. */
export async function checkReadiness(checks: HealthChecks, timeoutMs = 2_000): Promise<ReadinessReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, probe]) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          probe(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
          }),
        ]);
        return [name, 'ok'] as const;
      } catch (error) {
        // NOTE: only the error's class of failure, never connection strings or hosts.
        return [name, error instanceof Error && error.message === 'timed out' ? 'timed out' : 'unreachable'] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const report: ReadinessReport['checks'] = Object.fromEntries(entries);
  return { status: entries.every(([, v]) => v === 'ok') ? 'ok' : 'unavailable', checks: report };
}

/**
 * Answers GET /healthz (the process is alive) and GET /readyz (its dependencies answer).
 * Returns false when the request is for another path, so HTTP services can call it first.
 */
export function serveHealth(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  checks: HealthChecks,
  isShuttingDown: () => boolean = () => false,
): boolean {
  const path = (req.url ?? '').split('?')[0];
  if (req.method !== 'GET' || (path !== '/healthz' && path !== '/readyz')) return false;
  const send = (status: number, body: unknown) => {
    const json = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(json);
  };
  if (path === '/healthz') {
    send(200, { status: 'ok' });
    return true;
  }
  if (isShuttingDown()) {
    send(503, { status: 'shutting_down', checks: {} });
    return true;
  }
  void checkReadiness(checks).then((report) => send(report.status === 'ok' ? 200 : 503, report));
  return true;
}

/**
 * Server options every FrameDeck HTTP server uses: bounded time to send headers and the whole
 * request. Node checks these only every `connectionsCheckingInterval` (30 s by default), so the
 * check runs at least once a second.
 */
export function httpServerOptions(limits: { headersTimeoutMs: number; requestTimeoutMs: number }): http.ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs),
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
  };
}

/** A server with only the health endpoints, for services that have no HTTP API of their own. */
export function startHealthServer(options: {
  host: string;
  port: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  checks: HealthChecks;
  isShuttingDown?: () => boolean;
}): Promise<http.Server> {
  const server = http.createServer(httpServerOptions(options), (req, res) => {
    if (!serveHealth(req, res, options.checks, options.isShuttingDown)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'not found' }));
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve(server));
  });
}

/**
 * Closes a server and resolves once every connection is gone, without failing a client that
 * reuses a kept-alive connection (a rolling restart behind a balancer). It stops accepting
 * connections at once; each open connection gets `Connection: close` on its next response, and
 * one left idle ends at the server's keep-alive timeout, which the client was told and honours
 * (it does not send on a socket idle that long). Closing idle connections at once, as
 * http.Server#close does since Node 19, races a client sending on one: measured, a connection
 * error for 2 of ~1,800 sequential ingest requests over two gateway restarts.
 */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
      if (!res.headersSent) res.setHeader('connection', 'close');
    });
    // net.Server#close: stop listening, call back once the last connection ended.
    net.Server.prototype.close.call(server, () => {
      clearTimeout(straggler);
      resolve();
    });
    // A client that holds a connection past the timeout it was told loses it.
    const straggler = setTimeout(() => server.closeAllConnections(), server.keepAliveTimeout + 1_000);
    straggler.unref();
  });
}
