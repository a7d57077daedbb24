import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeServer } from './health.js';

/** One request on `agent`'s connection: status and Connection header. */
function get(port: number, agent: http.Agent): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get({ port, host: '127.0.0.1', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      })
      .on('error', reject);
  });
}

describe('closeServer', () => {
  it('stops accepting, but a kept-alive connection still gets its next answer, with Connection: close', async () => {
    const server = http.createServer((_req, res) => setTimeout(() => res.end('ok'), 20));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(port, agent)).toEqual({ status: 200, connection: 'keep-alive' });

    const closed = closeServer(server);
    // The idle kept-alive socket was not cut: the client's next request on it is answered.
    expect(await get(port, agent)).toEqual({ status: 200, connection: 'close' });
    await closed;
    // New connections are refused.
    await expect(get(port, new http.Agent())).rejects.toThrow(/ECONNREFUSED/);
    agent.destroy();
  });
});
