import { describe, expect, it } from "vitest";
import { keyedTtlCache, ttlCache } from "./ttl-cache.js";

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

describe("keyedTtlCache", () => {
  it("keeps one value per key for the ttl, drops the oldest past maxEntries, and not failures", async () => {
    let clock = 0;
    const loads: string[] = [];
    const cache = keyedTtlCache<string>({ ttlMs: 100, maxEntries: 2 }, () => clock);
    const get = (key: string) =>
      cache.get(key, async () => {
        loads.push(key);
        if (key === "bad") throw new Error("no");
        return `${key}${loads.length}`;
      });
    expect(await Promise.all([get("a"), get("a"), get("b")])).toEqual(["a1", "a1", "b2"]);
    await get("c"); // evicts a
    expect(await get("b")).toBe("b2");
    expect(await get("a")).toBe("a4");
    clock = 101;
    expect(await get("a")).toBe("a5");
    await expect(get("bad")).rejects.toThrow("no");
    await expect(get("bad")).rejects.toThrow("no");
    expect(loads.filter((k) => k === "bad")).toHaveLength(2);
  });
});
