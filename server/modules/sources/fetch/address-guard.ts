import dns from "node:dns";
import net from "node:net";
import { allowList, onList } from "../../../lib/address-list.js";

/**
 * The SSRF guard: which addresses a source request may connect to. Checked at connect time, on
 * every address DNS answered (a name that resolves to one private address among public ones is
 * refused), so an answer cannot change between a check and the connection.
 */

const BLOCKED = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata lives at 169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback (::1), IPv4-compatible
  // Transition forms that carry an IPv4 address a relay would reach (127.0.0.1 as 2002:7f00:1::):
  // refused whole, as no DJ site is served from one.
  ["2002::", 16], // 6to4
  ["2001::", 32], // Teredo (server and client IPv4 inside)
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215)
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // old site-local
  ["ff00::", 8], // multicast
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv6");
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedIpv4(ipv6: string): string | null {
  const compressed = new URL(`http://[${ipv6}]/`).hostname.slice(1, -1);
  const match = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/u.exec(compressed);
  if (!match) return null;
  const high = parseInt(match[1]!, 16);
  const low = parseInt(match[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** True for private, loopback, link-local, unique-local, CGNAT, multicast, unspecified and other non-public addresses. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/gu, "").replace(/%.*$/u, "");
  const family = net.isIP(bare);
  if (family === 4) return BLOCKED.check(bare, "ipv4");
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4 !== null) return BLOCKED.check(v4, "ipv4");
    return BLOCKED.check(bare, "ipv6");
  }
  return true; // not an address at all: never connect
}

export type LookupFunction = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

export const systemLookup: LookupFunction = (hostname, options, callback) => dns.lookup(hostname, options, callback);

/** Raised inside the connection by the guarded lookup; the client turns it into SourceError "forbidden_address". */
export class ForbiddenAddressError extends Error {
  readonly code = "EFORBIDDENADDRESS";
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to ${address}, a non-public address`);
  }
}

/** Addresses let through despite the guard: tests' fixture servers, `OUTBOUND_ALLOW`'s lab hosts. */
export interface AddressAllowList {
  has(address: string): boolean;
}

/**
 * An allow list of exact addresses, CIDR ranges and `loopback` (as METRICS_ALLOW takes them). An
 * IPv6 form of an IPv4 address (`::ffff:127.0.0.1`) is never let through by it: only the address
 * as written in the list is.
 */
export function addressAllowList(entries: readonly string[] = []): AddressAllowList {
  const list = allowList(entries);
  return { has: (address) => !(net.isIP(address) === 6 && embeddedIpv4(address) !== null) && onList(list, address) };
}

/** May a connection go to this address? `allowAddresses` lets tests reach their fixture server (never set in production). */
export function addressAllowed(address: string, allowAddresses: AddressAllowList): boolean {
  const bare = address.replace(/^\[|\]$/gu, "");
  return allowAddresses.has(bare) || !isForbiddenAddress(bare);
}

/**
 * A `lookup` for node:net that resolves every address of the name and refuses the connection
 * when any of them is not public. It answers in the shape net asked for (one address, or all of
 * them for Happy Eyeballs).
 */
export function guardedLookup(resolve: LookupFunction, allowAddresses: AddressAllowList) {
  return (
    hostname: string,
    options: dns.LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
  ): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 0);
      const refused = addresses.find((a) => !addressAllowed(a.address, allowAddresses));
      if (refused) return callback(new ForbiddenAddressError(hostname, refused.address), "", 0);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
