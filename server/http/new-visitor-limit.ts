import { normalizeIP } from "@fastify/rate-limit";
import { LRUCache } from "lru-cache";

interface Window {
  count: number;
  startedMs: number;
}

/**
 * The new-visitor limit counted in this process, synchronously (no Redis): the kept-page lane
 * (ADR 0069) gives a cookie-less suite page its new visitor's cookie in the turn the request
 * arrived, and Fastify's path counts through the same counters. The rule is @fastify/rate-limit's
 * local one: a fixed window per address (IPv6 by /64) that starts with its first count, `max`
 * counts allowed in it, the least recently counted addresses forgotten past `remembered`.
 */
export class NewVisitorLimit {
  private readonly windows: LRUCache<string, Window>;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    remembered: number,
    private readonly now: () => number = Date.now,
  ) {
    this.windows = new LRUCache({ max: remembered });
  }

  /** Counts a new visitor id for the address: false once the address is past its limit. */
  take(address: string): boolean {
    // An IPv4 address is its own key (normalizeIP only lower-cases it); IPv6 goes by its /64.
    const key = address.includes(":") ? normalizeIP(address) : address;
    const nowMs = this.now();
    let window = this.windows.get(key);
    if (!window || window.startedMs + this.windowMs <= nowMs) {
      window = { count: 0, startedMs: nowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return window.count <= this.max;
  }
}
