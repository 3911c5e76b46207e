import { BlockList, isIPv4, isIPv6 } from "node:net";
import { createRequire } from "node:module";
import { PRIVATE_LOCATION } from "@contracts/admin-account-texts";

/**
 * Where a login came from, for the admin login records (issue 12): ip2region's offline data as
 * the npm package `ip2region` ships it (IPv4 ip2region.db, IPv6 ipv6wry.db; no network, no
 * install script). Private, loopback and link-local addresses are 内网IP without a lookup.
 * The data (11 MB) is read on the first lookup, not at start-up.
 */

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
] as const) PRIVATE.addSubnet(net, bits, "ipv4");
PRIVATE.addAddress("::", "ipv6");
PRIVATE.addAddress("::1", "ipv6");
PRIVATE.addSubnet("fc00::", 7, "ipv6");
PRIVATE.addSubnet("fe80::", 10, "ipv6");

interface RawResult {
  country?: string;
  province?: string;
  city?: string;
  isp?: string;
  /** IPv6 only: the area as one text. */
  data?: string;
}
interface Searcher {
  searchRaw(ip: string): RawResult | null;
}

let searcher: Searcher | undefined;
function load(): Searcher {
  // A CommonJS package with `exports.default`; require keeps that plain under tsx and Node alike.
  const mod = createRequire(import.meta.url)("ip2region") as { default: new () => Searcher };
  return (searcher ??= new mod.default());
}

/** An IPv4-mapped IPv6 address (::ffff:1.2.3.4) as the IPv4 address it is. */
export function plainAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/iu.exec(ip);
  return mapped ? mapped[1]! : ip;
}

export function isPrivateAddress(ip: string): boolean {
  const plain = plainAddress(ip);
  if (isIPv4(plain)) return PRIVATE.check(plain, "ipv4");
  if (isIPv6(plain)) return PRIVATE.check(plain, "ipv6");
  return false;
}

/**
 * `中国 广东省 深圳市 阿里云`, `美国 Level3`, `内网IP`; '' for what the data does not know (or
 * what is no address at all).
 */
export function ipLocation(ip: string): string {
  const plain = plainAddress(ip.trim());
  if (!isIPv4(plain) && !isIPv6(plain)) return "";
  if (isPrivateAddress(plain)) return PRIVATE_LOCATION;
  let found: RawResult | null;
  try {
    found = load().searchRaw(plain);
  } catch {
    return "";
  }
  if (!found) return "";
  const parts = [found.country || (isIPv6(plain) ? found.data : ""), found.province, found.city, found.isp]
    .map((p) => (p ?? "").trim())
    .filter((p) => p && p !== "0");
  return [...new Set(parts)].join(" ").slice(0, 120);
}
