/**
 * Who may read /metrics (ADR 0044). The numbers are not public: they tell load, errors and which
 * sources fail. Two ways in, either is enough:
 * - the connection itself comes from an allowed address (METRICS_ALLOW, default loopback) and
 *   the request was not forwarded by a proxy. The socket's address is used, never
 *   X-Forwarded-For: behind nginx every request arrives from loopback, so a request carrying a
 *   forwarding header never passes this way, whatever TRUST_PROXY says;
 * - `Authorization: Bearer <METRICS_TOKEN>` (from anywhere, through the proxy too).
 * Anyone else gets the site's ordinary 404, as for an address that does not exist.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { allowList, onList } from "../../lib/address-list.js";

export { allowList };

export interface MetricsAccessOptions {
  /** Addresses and CIDR ranges (`10.0.0.0/8`), or `loopback`; empty = none by address. */
  allow: readonly string[];
  /** A bearer token that opens /metrics from anywhere; undefined = none. */
  token?: string;
}

const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"] as const;

const digest = (value: string) => createHash("sha256").update(value).digest();

/** The check for one app: `(request) => allowed`. */
export function metricsAccess(options: MetricsAccessOptions): (request: FastifyRequest) => boolean {
  const list = allowList(options.allow);
  const anyAddress = options.allow.length > 0;
  const expected = options.token ? digest(`Bearer ${options.token}`) : undefined;
  return (request) => {
    if (expected) {
      const given = request.headers.authorization;
      // Compared as digests: same length, constant time, whatever was sent.
      if (typeof given === "string" && timingSafeEqual(digest(given), expected)) return true;
    }
    if (!anyAddress) return false;
    if (FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)) return false;
    const peer = request.raw.socket?.remoteAddress;
    if (!peer) return false;
    const v4 = peer.startsWith("::ffff:") ? peer.slice(7) : peer;
    return onList(list, v4);
  };
}
