import { BlockList, isIP } from "node:net";

/**
 * Address allow lists written by operators (METRICS_ALLOW, OUTBOUND_ALLOW): exact addresses, CIDR
 * ranges and the word `loopback`.
 */

/** `10.0.0.0/8`, `127.0.0.1`, `::1`, `loopback` into a BlockList; throws on anything else. */
export function allowList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === "loopback") {
      list.addSubnet("127.0.0.0", 8, "ipv4");
      list.addAddress("::1", "ipv6");
      continue;
    }
    const [address, bits] = entry.split("/");
    const family = isIP(address ?? "");
    if (!address || family === 0) throw new Error(`not an address or range: ${entry}`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address, type);
    else {
      const prefix = Number(bits);
      if (!/^\d{1,3}$/.test(bits) || prefix > (family === 4 ? 32 : 128)) throw new Error(`not a range: ${entry}`);
      list.addSubnet(address, prefix, type);
    }
  }
  return list;
}

/** Whether `address` (a bare IPv4 or IPv6 address) is on the list. */
export function onList(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
}
