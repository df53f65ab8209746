import { BlockList, isIP } from 'node:net';

// Which addresses an outbound fetch may reach: public unicast only. The lists follow IANA's
// special-purpose registries (RFC 6890 and successors), plus carrier-grade NAT and the cloud
// metadata addresses (169.254.169.254, fd00:ec2::254, 100.100.100.200 sit inside these ranges).

const NOT_PUBLIC_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const NOT_PUBLIC_V6: [string, number][] = [
  ['::', 96], // unspecified, loopback, IPv4-compatible (deprecated)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address of any kind
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const notPublic = new BlockList();
for (const [net, bits] of NOT_PUBLIC_V4) notPublic.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of NOT_PUBLIC_V6) notPublic.addSubnet(net, bits, 'ipv6');

/** The 8 16-bit groups of an IPv6 address (a trailing dotted quad allowed), or undefined. */
export function ipv6Groups(ip: string): number[] | undefined {
  if (isIP(ip) !== 6) return undefined;
  let text = ip.replace(/%.*$/, '').toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => Number.parseInt(g, 16));
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) address. */
export function embeddedIpv4(ip: string): string | undefined {
  const g = ipv6Groups(ip);
  if (!g) return undefined;
  const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (!mapped && !nat64) return undefined;
  return [g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff].join('.');
}

/** Is `ip` a public unicast address (IPv4 or IPv6, an embedded IPv4 judged as itself)? */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  if (family === 4) return !notPublic.check(ip, 'ipv4');
  const inner = embeddedIpv4(ip);
  if (inner !== undefined) return isPublicAddress(inner);
  return !notPublic.check(ip.replace(/%.*$/, ''), 'ipv6');
}

/** A list of addresses and CIDRs (`127.0.0.1/32`, `::1`) as a matcher. */
export function networkMatcher(entries: readonly string[]): (ip: string) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (ip) => {
    const family = isIP(ip);
    return family !== 0 && list.check(ip.replace(/%.*$/, ''), family === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * Can a service on the internet call this URL (Mercado Pago notifying PUBLIC_URL)? https, and a
 * public address or a name that is not a local one. No DNS: a name is judged by its form.
 */
export function reachableFromInternet(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) return isPublicAddress(host);
  return host.includes('.') && !/\.(localhost|local|internal|lan|home\.arpa)$/.test(host);
}
