import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id.js';
import { clientAddress, compileProxyTrust } from './trusted-proxies.js';

/** A request as node:http hands it over: the TCP peer and the headers the peer sent. */
function request(peer: string, headers: Record<string, string> = {}): http.IncomingMessage {
  return {
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
    headers,
  } as unknown as http.IncomingMessage;
}

describe('client address behind trusted proxies', () => {
  it('trusts nobody by default: a forged X-Forwarded-For never replaces the peer', () => {
    const trust = compileProxyTrust([]);
    expect(clientAddress(request('203.0.113.7', { 'x-forwarded-for': '198.51.100.1' }), trust)).toBe('203.0.113.7');
  });

  it('reads the address a trusted proxy appended, not what the client wrote before it', () => {
    const trust = compileProxyTrust(['10.0.0.0/8']);
    // The client forged "1.2.3.4"; the load balancer (10.0.0.5) appended the real peer.
    const req = request('10.0.0.5', { 'x-forwarded-for': '1.2.3.4, 198.51.100.9' });
    expect(clientAddress(req, trust)).toBe('198.51.100.9');
  });

  it('ignores the header when the peer is not one of the proxies', () => {
    const trust = compileProxyTrust(['10.0.0.0/8']);
    expect(clientAddress(request('192.0.2.50', { 'x-forwarded-for': '198.51.100.9' }), trust)).toBe('192.0.2.50');
  });

  it('matches IPv4 peers seen as IPv4-mapped IPv6 addresses', () => {
    const trust = compileProxyTrust(['127.0.0.1']);
    expect(clientAddress(request('::ffff:127.0.0.1', { 'x-forwarded-for': '198.51.100.9' }), trust)).toBe(
      '198.51.100.9',
    );
  });

  it('refuses an entry that is not an address or range', () => {
    expect(() => compileProxyTrust(['10.0.0.0/99'])).toThrow();
  });
});

describe('request id', () => {
  const trust = compileProxyTrust(['10.0.0.0/8']);
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('keeps a well-formed id forwarded by a trusted proxy', () => {
    expect(requestIdFor(request('10.1.2.3', { [REQUEST_ID_HEADER]: 'lb-7f3a:0001' }), trust)).toBe('lb-7f3a:0001');
  });

  it('replaces an id sent by an untrusted peer', () => {
    expect(requestIdFor(request('198.51.100.1', { [REQUEST_ID_HEADER]: 'chosen-by-client' }), trust)).toMatch(uuid);
  });

  it('replaces a malformed or overlong id even from a trusted proxy', () => {
    for (const bad of ['a b', 'x\r\nInjected: 1', '"quoted"', 'x'.repeat(129), '']) {
      expect(requestIdFor(request('10.1.2.3', { [REQUEST_ID_HEADER]: bad }), trust)).toMatch(uuid);
    }
    expect(requestIdFor(request('10.1.2.3', { [REQUEST_ID_HEADER]: 'x'.repeat(128) }), trust)).toBe('x'.repeat(128));
  });
});
