import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../support/processes.js';
import { connectTestStack } from '../support/stack.js';
import { TEST_ENV } from '../support/config.js';
import { newTenant, startGateway, type Tenant } from './ingest-harness.js';

// Refusals decided before the body is read (401, 403, 411, 413, 415, 404), sent the way a
// blocking HTTP client sends them (java.net.http, most SDKs): the whole body is written first,
// then the answer is read. If the gateway closed with body bytes unread, the kernel would
// reset the connection and the client could lose the answer ("header parser received no
// bytes"). Each kind is repeated on fresh connections; every answer must arrive whole.
const stack = connectTestStack();
const PORT = Number(TEST_ENV.FRAMEDECK_INGEST_PORT);
const REPEAT = 200;
const CONCURRENCY = 8;
let gateway: RunningService;
let tenant: Tenant;

beforeAll(async () => {
  tenant = await newTenant(stack.pool, 'pro');
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway?.stop();
  await stack.close();
});

type Reply = { status: number; body: string; connectionClose: boolean };

/**
 * Sends the request as a blocking client does: the head, then the body in 16 KiB writes, each
 * waited for; only then is the answer read (status line, headers, Content-Length body). A
 * reset while sending (EPIPE/ECONNRESET: the server closed with body bytes unread) loses the
 * exchange, as it does for java.net.http.
 */
function exchange(request: { head: Buffer; body: Buffer }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    // Half-open allowed: a server that answers early may send its FIN while the body is still
    // being written; that is not an error, a reset is.
    const socket = net.connect({ port: PORT, host: '127.0.0.1', allowHalfOpen: true });
    let received = Buffer.alloc(0);
    let sent = false;
    const parse = (): Reply | undefined => {
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      const head = received.toString('latin1', 0, end);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? -1);
      const body = received.subarray(end + 4);
      if (length < 0 || body.length < length) return undefined;
      return {
        status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1] ?? 0),
        body: body.toString('utf8', 0, length),
        connectionClose: /\r\nconnection: *close/i.test(head),
      };
    };
    const settle = () => {
      const reply = sent ? parse() : undefined;
      if (!reply) return;
      socket.destroy();
      resolve(reply);
    };
    const lost = (why: string) => {
      socket.destroy();
      reject(
        new Error(
          `${why} (answer ${sent ? 'incomplete' : 'never read'}: ${JSON.stringify(received.toString('latin1', 0, 80))})`,
        ),
      );
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      settle();
    });
    socket.on('error', (error) => lost(`socket error ${(error as NodeJS.ErrnoException).code}`));
    socket.on('end', () => {
      if (sent && !parse()) lost('connection closed');
    });
    socket.setTimeout(15_000, () => lost('no answer within 15 s'));
    const write = (bytes: Buffer) =>
      new Promise<void>((done, fail) => socket.write(bytes, (error) => (error ? fail(error) : done())));
    void (async () => {
      await write(request.head);
      for (let i = 0; i < request.body.length; i += 16_384) {
        await write(request.body.subarray(i, i + 16_384));
        await new Promise((next) => setImmediate(next));
      }
      sent = true;
      settle();
    })().catch((error: NodeJS.ErrnoException) => lost(`reset while sending the body (${error.code})`));
  });
}

function request(headers: Record<string, string>, body: Buffer, path = '/v1/events'): { head: Buffer; body: Buffer } {
  const head = Object.entries({
    host: 'x',
    'content-type': 'application/x-protobuf',
    'x-sdk-version': 't/1',
    ...headers,
  })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return { head: Buffer.from(`POST ${path} HTTP/1.1\r\n${head}\r\n`), body };
}

function chunked(body: Buffer, chunkSize: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < body.length; i += chunkSize) {
    const chunk = body.subarray(i, i + chunkSize);
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

const body = (n: number) => Buffer.alloc(n, 0x5a);

async function repeat(
  make: () => { head: Buffer; body: Buffer },
  expected: { status: number; error: RegExp },
): Promise<Reply[]> {
  const replies: Reply[] = [];
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REPEAT) {
        next++;
        await exchange(make()).then(
          (reply) => replies.push(reply),
          (error: Error) => failures.push(error.message),
        );
      }
    }),
  );
  expect(failures, `${failures.length} of ${REPEAT} answers lost: ${failures[0]}`).toEqual([]);
  for (const reply of replies) {
    expect(reply.status).toBe(expected.status);
    expect(JSON.parse(reply.body).error).toMatch(expected.error);
  }
  return replies;
}

describe(`early refusals reach the client whole (${REPEAT} fresh connections each, body written before reading)`, () => {
  it('401 without X-API-Key, a 100,000-byte body discarded and the connection kept', async () => {
    const replies = await repeat(() => request({ 'content-length': '100000' }, body(100_000)), {
      status: 401,
      error: /X-API-Key/,
    });
    expect(replies.every((r) => !r.connectionClose)).toBe(true);
  });

  it('403 for a key without events:write', async () => {
    await repeat(() => request({ 'x-api-key': tenant.keys.read!, 'content-length': '126000' }, body(126_000)), {
      status: 403,
      error: /events:write/,
    });
  });

  it('415 for a JSON body', async () => {
    await repeat(
      () =>
        request(
          { 'x-api-key': tenant.keys.ingest!, 'content-type': 'application/json', 'content-length': '80000' },
          body(80_000),
        ),
      { status: 415, error: /Content-Type/ },
    );
  });

  it('411 for a chunked body without Content-Length', async () => {
    await repeat(
      () =>
        request({ 'x-api-key': tenant.keys.ingest!, 'transfer-encoding': 'chunked' }, chunked(body(90_000), 16_384)),
      { status: 411, error: /Content-Length/ },
    );
  });

  it('413 for a body over 126,000 bytes, sent whole: answered with Connection: close, closed lingering', async () => {
    const replies = await repeat(
      () => request({ 'x-api-key': tenant.keys.ingest!, 'content-length': '400000' }, body(400_000)),
      { status: 413, error: /126000 bytes/ },
    );
    expect(replies.every((r) => r.connectionClose)).toBe(true);
  });

  it('404 for another path, body discarded', async () => {
    await repeat(() => request({ 'content-length': '50000' }, body(50_000), '/v2/events'), {
      status: 404,
      error: /Not found/,
    });
  });

  it('after a discarded body the same connection serves the next request', async () => {
    const replies = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(PORT, '127.0.0.1');
      let text = '';
      socket.on('data', (d) => {
        text += d.toString('latin1');
        if ((text.match(/HTTP\/1\.1 /g) ?? []).length === 2 && text.endsWith('}')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
      socket.setTimeout(10_000, () => socket.destroy(new Error(`timeout: ${text}`)));
      const [first, second] = [
        request({ 'content-length': '5000' }, body(5000)),
        request({ 'content-length': '3' }, body(3)),
      ];
      socket.write(Buffer.concat([first.head, first.body, second.head, second.body]));
    });
    expect(replies.match(/HTTP\/1\.1 401/g)).toHaveLength(2);
  });
});
