import { describe, expect, it } from "vitest";
import { memoryEphemeralStore } from "../../lib/ephemeral-store.js";
import { addressKey, loginThrottle } from "./login-throttle.js";

describe("addressKey", () => {
  it("keeps IPv4, unwraps IPv4-mapped IPv6 and groups other IPv6 by /64", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("2001:db8:0:1:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:0:1::/64");
    expect(addressKey("2001:0db8:0000:0001::1")).toBe("2001:db8:0:1::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });
});

describe("loginThrottle", () => {
  it("keeps members' and admins' counts apart", async () => {
    const store = memoryEphemeralStore();
    const users = loginThrottle(store, "user");
    const admins = loginThrottle(store, "admin");
    await users.fail("boss", "203.0.113.7");
    await users.fail("boss", "203.0.113.7");
    expect(await users.counts("boss", "203.0.113.7")).toEqual({ failures: 2, locked: false });
    expect(await admins.counts("boss", "203.0.113.7")).toEqual({ failures: 0, locked: false });
  });

  it("counts an IPv6 subscriber's whole /64 as one address", async () => {
    const throttle = loginThrottle(memoryEphemeralStore(), "user");
    await throttle.fail("a", "2001:db8:0:1::1");
    await throttle.fail("b", "2001:db8:0:1::2");
    expect((await throttle.counts("c", "2001:db8:0:1:ffff::9")).failures).toBe(2);
    expect((await throttle.counts("c", "2001:db8:0:2::1")).failures).toBe(0);
  });
});
