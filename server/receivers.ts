// Where a live gateway may send notifications: a merchant's public HTTPS server, never the
// gateway's own network. A webhook URL is chosen by whoever holds a merchant token, so without
// this a notification could be aimed at localhost, the cloud metadata address or a private
// service. The test environment takes any http(s) URL (receivers on the developer's machine).
// Used by the webhook schema (registration) and by delivery (each attempt).
import { lookup as dnsLookup } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';

const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // this network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv6');

/** An IPv4 or IPv6 address a public receiver cannot have (IPv4-mapped IPv6 judged as its IPv4). */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  if (mapped) return nonPublic.check(mapped, 'ipv4');
  const family = isIP(bare);
  if (family === 0) return false;
  return nonPublic.check(bare, family === 4 ? 'ipv4' : 'ipv6');
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
