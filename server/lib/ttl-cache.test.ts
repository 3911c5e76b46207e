import { describe, expect, it } from "vitest";
import { ttlCache } from "./ttl-cache.js";

describe("ttlCache", () => {
  it("loads once per ttl, shares a pending load, and forgets on invalidate", async () => {
    let clock = 0;
    let loads = 0;
    const cache = ttlCache(async () => ++loads, 1000, () => clock);
    expect(await Promise.all([cache.get(), cache.get()])).toEqual([1, 1]);
    clock = 1000;
    expect(await cache.get()).toBe(1);
    clock = 1001;
    expect(await cache.get()).toBe(2);
    cache.invalidate();
    expect(await cache.get()).toBe(3);
  });

  it("does not keep a failed load", async () => {
    let fail = true;
    const cache = ttlCache(async () => {
      if (fail) throw new Error("down");
      return "up";
    }, 60_000);
    await expect(cache.get()).rejects.toThrow("down");
    fail = false;
    expect(await cache.get()).toBe("up");
  });
});
