import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Which URLs notifications may be sent to (SSRF guard). Production: https only, and never an
 * address inside a private, loopback, link-local or otherwise non-public range, checked at
 * channel creation (syntax, literal addresses, local names) and again for every delivery on
 * the addresses the host name resolves to at connect time (so DNS rebinding cannot slip
 * through). `allowLocalTargets` (FRAMEDECK_NOTIFICATIONS_ALLOW_LOCAL_TARGETS=1) lifts both
 * rules, for local development and tests only.
 */
export type TargetPolicy = { allowLocalTargets: boolean };

export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['64:ff9b::', 96], // NAT64 can reach any IPv4 address
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): a site's own translator, same reach
  ['100::', 64],
  ['2001::', 32], // Teredo: the tunnel endpoint is an embedded IPv4 address
  ['2002::', 16], // 6to4: the relay reaches the embedded IPv4 address (2002:7f00:1:: is 127.0.0.1)
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** True for addresses a notification must never reach in production. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NON_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return true;
  // IPv4-mapped addresses (::ffff:10.0.0.1) are judged by their IPv4 part. The URL parser
  // gives the canonical form, ::ffff:a00:1, whatever way the address was written.
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return true; // zone ids (fe80::1%eth0) and other forms a URL cannot hold
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return NON_PUBLIC.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  return NON_PUBLIC.check(canonical, 'ipv6');
}

/** Parses and checks a channel URL without touching the network; throws TargetRefusedError. */
export function checkTargetUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefusedError('not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(policy.allowLocalTargets && url.protocol === 'http:')) {
    throw new TargetRefusedError(policy.allowLocalTargets ? 'must be an http(s) URL' : 'must be an https URL');
  }
  if (url.username || url.password) throw new TargetRefusedError('must not contain credentials');
  if (policy.allowLocalTargets) return url;
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIP(host) && isNonPublicAddress(host)) throw new TargetRefusedError('must not point to a private address');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || !host.includes('.')) {
    throw new TargetRefusedError('must name a public host');
  }
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses host names resolving to any non-public address,
 * so the address checked is the address connected to.
 */
export function guardedLookup(policy: TargetPolicy, resolve: typeof dnsLookup = dnsLookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = !policy.allowLocalTargets && addresses.some((a) => isNonPublicAddress(a.address));
      if (refused || addresses.length === 0) {
        return callback(new TargetRefusedError(`${hostname} resolves to a non-public address`), []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
