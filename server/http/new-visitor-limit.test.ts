import { describe, expect, it } from "vitest";
import { NewVisitorLimit } from "./new-visitor-limit.js";

describe("NewVisitorLimit", () => {
  it("allows max new visitors an address per window, from its first count, then again after it", () => {
    let now = 1_000;
    const limit = new NewVisitorLimit(3, 60_000, 100, () => now);
    expect([1, 2, 3, 4].map(() => limit.take("203.0.113.7"))).toEqual([true, true, true, false]);
    expect(limit.take("203.0.113.8")).toBe(true);
    now += 59_999;
    expect(limit.take("203.0.113.7")).toBe(false);
    now += 1;
    expect(limit.take("203.0.113.7")).toBe(true);
  });

  it("counts an IPv6 subscriber's /64 as one address, and an IPv4-mapped address as its IPv4 one", () => {
    const limit = new NewVisitorLimit(2, 60_000, 100);
    expect(limit.take("2001:db8:1:2::1")).toBe(true);
    expect(limit.take("2001:db8:1:2:ffff::9")).toBe(true);
    expect(limit.take("2001:db8:1:2::3")).toBe(false);
    expect(limit.take("2001:db8:1:3::1")).toBe(true);
    expect(limit.take("::ffff:198.51.100.1")).toBe(true);
    expect(limit.take("198.51.100.1")).toBe(true);
    expect(limit.take("198.51.100.1")).toBe(false);
  });

  it("forgets the least recently counted address past the addresses it remembers", () => {
    const limit = new NewVisitorLimit(1, 60_000, 2);
    limit.take("192.0.2.1");
    limit.take("192.0.2.2");
    expect(limit.take("192.0.2.1")).toBe(false); // 192.0.2.1 is now the most recent
    limit.take("192.0.2.3"); // forgets 192.0.2.2
    expect(limit.take("192.0.2.2")).toBe(true);
    expect(limit.take("192.0.2.3")).toBe(false);
  });
});
