// Where a live gateway may send notifications: a merchant's public HTTPS server, never the
// gateway's own network. A webhook URL is chosen by whoever holds a merchant token, so without
// this a notification could be aimed at localhost, the cloud metadata address or a private
// service. The test environment takes any http(s) URL (receivers on the developer's machine).
// Used by the webhook schema (registration) and by delivery (each attempt).
import { lookup as dnsLookup } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';
import os from 'node:os';

const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // this network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8], // multicast
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit words of an IPv6 address (a dotted IPv4 tail allowed); undefined when it is none. */
function ipv6Words(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const hex = dotted ? address.slice(0, dotted.index) + [(+dotted[1]! << 8) | +dotted[2]!, (+dotted[3]! << 8) | +dotted[4]!].map((w) => w.toString(16)).join(':') : address;
  const [head, tail] = hex.split('::') as [string, string | undefined];
  const words = (part: string) => (part ? part.split(':').map((w) => parseInt(w, 16)) : []);
  const left = words(head);
  const right = tail === undefined ? [] : words(tail);
  return [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
}

const dottedOf = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 one carries, where a network may route it there: IPv4-compatible
 * (::a.b.c.d), mapped (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d)
 * and 6to4 (2002:aabb:ccdd::).
 */
function embeddedIpv4(w: number[]): string | undefined {
  const zero = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && (w[5] === 0 || w[5] === 0xffff)) return dottedOf(w[6]!, w[7]!);
  if (zero(0, 4) && w[4] === 0xffff && w[5] === 0) return dottedOf(w[6]!, w[7]!);
  if (w[0] === 0x64 && w[1] === 0xff9b && zero(2, 6)) return dottedOf(w[6]!, w[7]!);
  if (w[0] === 0x2002) return dottedOf(w[1]!, w[2]!);
  return undefined;
}

/** The addresses of this machine's own interfaces: a receiver there would be the gateway's own host. */
function isOwnAddress(address: string, family: 'ipv4' | 'ipv6'): boolean {
  const own = new BlockList();
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) own.addAddress(entry.address.replace(/%.*$/, ''), entry.family === 'IPv4' ? 'ipv4' : 'ipv6');
  }
  return own.check(address, family);
}

const isNonPublicIpv4 = (address: string) => nonPublic.check(address, 'ipv4') || isOwnAddress(address, 'ipv4');

/**
 * An IPv4 or IPv6 address a public receiver cannot have (an IPv6 one that carries an IPv4 judged
 * as it), or one of this machine's own.
 */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return false;
  if (family === 4) return isNonPublicIpv4(bare);
  const words = ipv6Words(bare)!;
  const carried = embeddedIpv4(words);
  if (carried !== undefined && isNonPublicIpv4(carried)) return true;
  return nonPublic.check(bare, 'ipv6') || isOwnAddress(bare, 'ipv6');
}

export type ReceiverProblem = 'not an https URL' | 'not a public host' | 'not resolvable' | 'resolves to a non-public address';

/** What makes this URL no receiver for a live gateway, as far as the URL alone tells; undefined when it may be one. */
export function liveReceiverProblem(url: string): ReceiverProblem | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not an https URL';
  }
  if (parsed.protocol !== 'https:') return 'not an https URL';
  // A fully qualified name's trailing dot ("localhost.") names the same host.
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return 'not a public host';
  return isNonPublicAddress(host) ? 'not a public host' : undefined;
}

export type Resolve = (hostname: string) => Promise<string[]>;

const resolveAll: Resolve = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The same, checked again at each delivery with the addresses the host resolves to now: a
 * public name can be pointed at an internal address after it was registered, and a webhook of
 * the merchants file was never checked at all.
 */
export async function liveDeliveryProblem(url: string, resolve: Resolve = resolveAll): Promise<ReceiverProblem | undefined> {
  const problem = liveReceiverProblem(url);
  if (problem) return problem;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return undefined;
  const addresses = await resolve(host).catch(() => [] as string[]);
  if (addresses.length === 0) return 'not resolvable';
  return addresses.some(isNonPublicAddress) ? 'resolves to a non-public address' : undefined;
}

/**
 * The name lookup of a live delivery's connection: it fails when the host resolves to any
 * non-public address. The connection uses the very addresses checked here, so a name pointed
 * elsewhere after liveDeliveryProblem looked (DNS rebinding) still cannot reach the gateway's network.
 */
export const publicAddressLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, options, (error, address, family) => {
    if (error) return callback(error, address, family);
    const addresses = typeof address === 'string' ? [address] : address.map((a) => a.address);
    if (addresses.some(isNonPublicAddress)) return callback(new Error(`receiver ${hostname} resolves to a non-public address`), address, family);
    callback(null, address, family);
  });
};
