import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from './http-post.js';
import type { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { checkTargetUrl, guardedLookup, isNonPublicAddress, TargetRefusedError } from './target-policy.js';

const production = { allowLocalTargets: false };
const local = { allowLocalTargets: true };

describe('isNonPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::7f00:1',
    '64:ff9b:1::a00:1', // local-use NAT64
    '64:ff9b:1:ffff::1',
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:a9fe:a9fe::', // 6to4 of 169.254.169.254
    '2002:808:808::1', // 6to4 is refused whole: even a public IPv4 goes through a relay
    '2001:0:4136:e378::1', // Teredo
    'ff02::1',
  ])('refuses %s', (address) => expect(isNonPublicAddress(address)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2001:4860:4860::8888', '2003::1'])(
    'allows %s',
    (address) => expect(isNonPublicAddress(address)).toBe(false),
  );
});

describe('checkTargetUrl', () => {
  it('allows public https URLs', () => {
    expect(checkTargetUrl('https://hooks.slack.com/services/T0/B0/x', production).hostname).toBe('hooks.slack.com');
  });

  it.each([
    ['http://example.com/hook', /https/],
    ['ftp://example.com/hook', /https/],
    ['https://user:pass@example.com/hook', /credentials/],
    ['https://127.0.0.1/hook', /private/],
    ['https://2130706433/hook', /private/], // 127.0.0.1 written as one number
    ['https://0x7f.1/hook', /private/],
    ['https://[::1]/hook', /private/],
    ['https://[::ffff:169.254.169.254]/latest/meta-data', /private/],
    ['https://[2002:a9fe:a9fe::]/latest/meta-data', /private/],
    ['https://[64:ff9b:1::a9fe:a9fe]/latest/meta-data', /private/],
    ['https://localhost/hook', /public host/],
    ['https://metadata/hook', /public host/],
    ['https://printer.local/hook', /public host/],
    ['not a url', /valid/],
  ])('refuses %s in production', (url, reason) => {
    expect(() => checkTargetUrl(url, production)).toThrow(TargetRefusedError);
    expect(() => checkTargetUrl(url, production)).toThrow(reason);
  });

  it('allows http and loopback only with the local switch', () => {
    expect(checkTargetUrl('http://127.0.0.1:9999/hook', local).port).toBe('9999');
    expect(() => checkTargetUrl('ftp://127.0.0.1/', local)).toThrow(TargetRefusedError);
  });
});

describe('postJson against a real loopback server', () => {
  let server: http.Server;
  let hits = 0;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits++;
      req.resume().on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses a host name whose DNS answer is non-public at connect time (DNS rebinding)', async () => {
    // A resolver that answers like a rebinding attacker's DNS: a public address, then loopback.
    const answers = [[{ address: '93.184.215.14', family: 4 }], [{ address: '127.0.0.1', family: 4 }]];
    const fakeDns = ((_host: string, _options: unknown, callback: (e: null, a: LookupAddress[]) => void) =>
      callback(null, answers.shift()!)) as unknown as typeof dnsLookup;
    const lookup = guardedLookup(production, fakeDns);
    const first = await new Promise((resolve) => lookup('hook.example.com', { all: true }, (e, a) => resolve(e ?? a)));
    expect(first).toEqual([{ address: '93.184.215.14', family: 4 }]);
    const second = await new Promise((resolve) => lookup('hook.example.com', {}, (e) => resolve(e)));
    expect(second).toBeInstanceOf(TargetRefusedError);
  });

  it('refuses "localhost." (trailing dot) before any request', async () => {
    const before = hits;
    await expect(
      postJson('https://localhost./hook', {}, '{}', { policy: production, timeoutMs: 2000 }),
    ).rejects.toThrow(TargetRefusedError);
    expect(hits).toBe(before);
  });

  it('delivers to loopback when local targets are allowed', async () => {
    const res = await postJson(`http://127.0.0.1:${port}/hook`, {}, '{}', { policy: local, timeoutMs: 2000 });
    expect(res.statusCode).toBe(204);
  });
});
