// A small TCP round-robin load balancer for the cluster topology on one machine: it holds a
// public address (the dashboard/API's 8080, ingest's 8081, ClickHouse's HTTP for the services)
// in front of several instances. Not an HTTP proxy: each client connection is handed whole
// to one backend, so keep-alive, streaming bodies and WebSockets pass untouched.
//
// Failover: a backend that refuses the connection (stopped, restarting, kill -9'd) is skipped
// and the next one tried, so a client only sees an error when every backend is down; a
// refusing backend is then skipped for BACKOFF_MS. Nothing has been sent to a backend when
// its connect fails, so trying another is always safe.
//
// Backends see the balancer's address (127.0.0.1), not the client's: behind a real HTTP
// load balancer, set FRAMEDECK_TRUSTED_PROXIES (docs/deployment.md).
//
//   node infra/local/tcp-balancer.mjs --name api --listen 127.0.0.1:8080 \
//     --backends 127.0.0.1:18080,127.0.0.1:18090
import { connect, createServer } from 'node:net';
import { parseArgs } from 'node:util';

const BACKOFF_MS = 2_000;
const CONNECT_TIMEOUT_MS = 5_000;

/** "host:port" → { host, port } */
export function parseAddress(text) {
  const at = text.lastIndexOf(':');
  const port = Number(text.slice(at + 1));
  if (at <= 0 || !Number.isInteger(port) || port <= 0 || port > 65_535) {
    throw new Error(`not a host:port address: ${text}`);
  }
  return { host: text.slice(0, at), port };
}

/** Round-robin order starting after the last pick, backends that recently refused last. */
export function createPicker(backends, now = Date.now) {
  let next = 0;
  const downUntil = new Map();
  return {
    order() {
      const start = next;
      next = (next + 1) % backends.length;
      const rotated = backends.map((_, i) => backends[(start + i) % backends.length]);
      const t = now();
      return [
        ...rotated.filter((b) => (downUntil.get(b) ?? 0) <= t),
        ...rotated.filter((b) => (downUntil.get(b) ?? 0) > t),
      ];
    },
    refused(backend) {
      downUntil.set(backend, now() + BACKOFF_MS);
    },
    accepted(backend) {
      downUntil.delete(backend);
    },
  };
}

function connectFirst(candidates, picker, onConnected, onNone) {
  const [backend, ...rest] = candidates;
  if (backend === undefined) return onNone();
  const { host, port } = parseAddress(backend);
  const upstream = connect({ host, port });
  upstream.setTimeout(CONNECT_TIMEOUT_MS);
  const fail = () => {
    upstream.destroy();
    picker.refused(backend);
    connectFirst(rest, picker, onConnected, onNone);
  };
  upstream.once('timeout', fail);
  upstream.once('error', fail);
  upstream.once('connect', () => {
    upstream.off('timeout', fail).off('error', fail).setTimeout(0);
    picker.accepted(backend);
    onConnected(upstream);
  });
}

function serve({ name, listen, backends }) {
  const picker = createPicker(backends);
  const server = createServer({ pauseOnConnect: true }, (client) => {
    client.on('error', () => client.destroy());
    connectFirst(
      picker.order(),
      picker,
      (upstream) => {
        upstream.on('error', () => client.destroy());
        upstream.on('close', () => client.destroy());
        client.on('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      },
      () => client.destroy(),
    );
  });
  const { host, port } = parseAddress(listen);
  server.listen(port, host, () => {
    console.error(`[framedeck] ${name} balancer on ${listen} → ${backends.join(', ')}`);
  });
  // Open keep-alive connections would hold close() forever: stop accepting, then leave.
  const stop = () => {
    server.close();
    setTimeout(() => process.exit(0), 500).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { name: { type: 'string', default: 'tcp' }, listen: { type: 'string' }, backends: { type: 'string' } },
  });
  if (!values.listen || !values.backends) {
    console.error('usage: tcp-balancer.mjs --name NAME --listen HOST:PORT --backends HOST:PORT,HOST:PORT…');
    process.exit(2);
  }
  serve({ name: values.name, listen: values.listen, backends: values.backends.split(',') });
}
