import type http from 'node:http';
import proxyAddr from 'proxy-addr';

/** Says whether an address is one of the operator's proxies (load balancers, ingress). */
export type ProxyTrust = (address: string, hopIndex: number) => boolean;

/**
 * Compiles FRAMEDECK_TRUSTED_PROXIES (IPs, CIDRs, or proxy-addr's names `loopback`,
 * `linklocal`, `uniquelocal`). An empty list trusts nobody: X-Forwarded-For is then ignored and
 * the client is the TCP peer. Express's `trust proxy` setting takes the same function, so the
 * API (req.ip) and the gateway (clientAddress) read client addresses the same way.
 * Throws on an entry that is not an address or a range.
 */
export function compileProxyTrust(trustedProxies: readonly string[]): ProxyTrust {
  return proxyAddr.compile([...trustedProxies]);
}

/**
 * The client's address: the TCP peer, unless the peer is a trusted proxy, in which case
 * X-Forwarded-For is walked from the right, skipping trusted hops, to the first untrusted
 * address (the left-most entries are whatever the client wrote and are never believed past it).
 */
export function clientAddress(req: http.IncomingMessage, trust: ProxyTrust): string {
  return proxyAddr(req, trust) || 'unknown';
}

/** Whether the TCP peer itself is a trusted proxy (whose request headers may be believed). */
export function peerIsTrusted(req: http.IncomingMessage, trust: ProxyTrust): boolean {
  const peer = req.socket.remoteAddress;
  return peer !== undefined && trust(peer, 0);
}
