import { describe, expect, it } from "vitest";
import { Cache, CacheRegistry, jsonBytes } from "./cache.js";

/** A cache on a fake clock whose loads return `${key}${n}` (n counts all loads) and can be held. */
function setup(options: { freshMs?: number; staleMs?: number; maxEntries: number; maxBytes?: number } = { freshMs: 100, staleMs: 1000, maxEntries: 3 }) {
  let clock = 0;
  const loads: string[] = [];
  const refreshErrors: string[] = [];
  let failing = false;
  let gate: Promise<void> = Promise.resolve();
  const cache = new Cache<string>({
    name: "test",
    maxBytes: 1_000_000,
    ...options,
    sizeOf: (value) => value.length,
    onRefreshError: (key) => refreshErrors.push(key),
    now: () => clock,
  });
  const get = (key: string) =>
    cache.get(key, async () => {
      loads.push(key);
      const n = loads.length;
      await gate;
      if (failing || key === "bad") throw new Error("no");
      return `${key}${n}`;
    });
  return {
    cache,
    get,
    loads,
    refreshErrors,
    tick: (ms: number) => (clock += ms),
    fail: (on: boolean) => (failing = on),
    hold() {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      return () => {
        gate = Promise.resolve();
        open();
      };
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("Cache", () => {
  it("shares one load among concurrent callers and keeps the value while fresh", async () => {
    const c = setup();
    expect(await Promise.all([c.get("a"), c.get("a"), c.get("b")])).toEqual(["a1", "a1", "b2"]);
    c.tick(100);
    expect(await c.get("a")).toBe("a1");
    expect(c.loads).toEqual(["a", "b"]);
  });

  it("serves a stale value at once while one background load replaces it", async () => {
    const c = setup();
    await c.get("a");
    c.tick(101);
    const release = c.hold();
    expect(await c.get("a")).toBe("a1"); // stale, not waiting for the held refresh
    expect(await c.get("a")).toBe("a1");
    expect(c.loads).toEqual(["a", "a"]); // one refresh, not one per request
    release();
    await settle();
    expect(await c.get("a")).toBe("a2");
    c.tick(100);
    expect(await c.get("a")).toBe("a2"); // fresh again from the refresh's start
  });

  it("keeps the stale value when a refresh fails, and tries again on the next request", async () => {
    const c = setup();
    await c.get("a");
    c.tick(101);
    c.fail(true);
    expect(await c.get("a")).toBe("a1");
    await settle();
    expect(await c.get("a")).toBe("a1");
    await settle();
    expect(c.loads).toEqual(["a", "a", "a"]);
    expect(c.refreshErrors).toEqual(["a", "a"]); // reported, not silent
    c.fail(false);
    await c.get("a");
    await settle();
    expect(await c.get("a")).toBe("a4");
  });

  it("makes the caller wait for a new load past staleMs", async () => {
    const c = setup();
    await c.get("a");
    c.tick(1001);
    expect(await c.get("a")).toBe("a2");
  });

  it("evicts the least recently used past maxEntries", async () => {
    const c = setup();
    await c.get("a");
    await c.get("b");
    await c.get("c");
    await c.get("a"); // a is now the most recent
    await c.get("d"); // evicts b
    expect(c.cache.size).toBe(3);
    expect(await c.get("a")).toBe("a1");
    expect(await c.get("b")).toBe("b5");
  });

  it("does not keep a failed first load", async () => {
    const c = setup();
    await expect(c.get("bad")).rejects.toThrow("no");
    await expect(c.get("bad")).rejects.toThrow("no");
    expect(c.loads).toEqual(["bad", "bad"]);
    expect(c.cache.size).toBe(0);
  });

  it("delete and clear make the next request load anew, and beat a refresh in flight", async () => {
    const c = setup();
    await c.get("a");
    await c.get("b");
    c.cache.delete("a");
    expect(await c.get("a")).toBe("a3");
    expect(await c.get("b")).toBe("b2");
    c.tick(101);
    const release = c.hold();
    await c.get("b"); // starts a refresh that read the data before the write
    c.cache.clear();
    release();
    await settle();
    expect(await c.get("b")).toBe("b5");
  });

  it("has: a value within its stale time or a load in flight, without counting or loading", async () => {
    const c = setup();
    expect(c.cache.has("a")).toBe(false);
    const release = c.hold();
    const loading = c.get("a");
    expect(c.cache.has("a")).toBe(true);
    release();
    await loading;
    const before = c.cache.stats();
    c.tick(1000);
    expect(c.cache.has("a")).toBe(true); // stale, still served at once
    c.tick(1);
    expect(c.cache.has("a")).toBe(false); // past its stale time: get would load
    expect(c.cache.stats()).toEqual(before);
    expect(c.loads).toEqual(["a"]);
  });

  it("without staleMs, a value past freshMs is loaded anew while the caller waits (a plain TTL)", async () => {
    const c = setup({ freshMs: 1000, maxEntries: 1 });
    expect(await Promise.all([c.get("a"), c.get("a")])).toEqual(["a1", "a1"]);
    c.tick(1000);
    expect(await c.get("a")).toBe("a1");
    c.tick(1);
    expect(await c.get("a")).toBe("a2");
  });

  it("keeps at most maxBytes (keys and values), the least recently used going first, and never a value larger than the cap", async () => {
    const c = setup({ maxEntries: 100, maxBytes: 9 });
    await c.get("a"); // "a" + "a1": 3 bytes
    await c.get("b"); // "b2"
    await c.get("c"); // "c3": 9 bytes in all
    await c.get("a");
    await c.get("d"); // "d4": b goes
    await settle();
    expect(c.cache.stats()).toMatchObject({ entries: 3, bytes: 9 });
    expect(c.cache.peek("b")).toBeUndefined();
    expect(c.cache.peek("a")).toBe("a1");
    const big = await c.cache.get("big", async () => "x".repeat(7));
    expect(big).toBe("xxxxxxx"); // served, not kept
    await settle();
    expect(c.cache.peek("big")).toBeUndefined();
    expect(c.cache.stats().bytes).toBeLessThanOrEqual(9);
  });

  it("measures a kept value again when it is served (it may have grown)", async () => {
    const grown = { bytes: 1 };
    const cache = new Cache<{ bytes: number }>({ name: "grow", maxEntries: 10, maxBytes: 100, sizeOf: (v) => v.bytes });
    await cache.get("k", async () => grown);
    expect(cache.stats().bytes).toBe(2); // the key's byte and the value's
    grown.bytes = 60;
    await cache.get("k", async () => grown);
    expect(cache.stats().bytes).toBe(61);
    grown.bytes = 101;
    await cache.get("k", async () => grown);
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it("counts hits, misses, refreshes, evictions and drops", async () => {
    const c = setup();
    await c.get("a");
    await c.get("a");
    await c.get("b");
    await c.get("c");
    await c.get("d"); // evicts a
    c.tick(101);
    await c.get("d"); // stale: a refresh
    c.cache.delete("b");
    c.cache.delete("c");
    await settle();
    expect(c.cache.stats()).toMatchObject({ name: "test", hits: 2, misses: 4, refreshes: 1, evictions: 1, drops: 2, entries: 1 });
  });

  it("memo keeps synchronously computed values the same way", () => {
    let clock = 0;
    let computed = 0;
    const cache = new Cache<number>({ name: "memo", maxEntries: 2, maxBytes: 100, sizeOf: () => 8, freshMs: 10, now: () => clock });
    expect(cache.memo("x", () => ++computed)).toBe(1);
    expect(cache.memo("x", () => ++computed)).toBe(1);
    cache.memo("y", () => ++computed);
    cache.memo("z", () => ++computed); // x goes
    expect(cache.memo("x", () => ++computed)).toBe(4);
    clock = 11;
    expect(cache.memo("x", () => ++computed)).toBe(5);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 5, entries: 2 });
  });
});

describe("CacheRegistry", () => {
  it("lists every cache it made with its counters, and refuses a second cache of one name", async () => {
    const caches = new CacheRegistry();
    const a = caches.create<string>({ name: "a", maxEntries: 2, maxBytes: 100, sizeOf: (v) => v.length });
    caches.create<string>({ name: "b", maxEntries: 2, maxBytes: 10, sizeOf: (v) => v.length });
    await a.get("k", async () => "v");
    expect(caches.stats().map((s) => [s.name, s.entries, s.misses, s.maxBytes])).toEqual([
      ["a", 1, 1, 100],
      ["b", 0, 0, 10],
    ]);
    expect(caches.get("a")).toBe(a);
    expect(() => caches.create({ name: "a", maxEntries: 1, maxBytes: 1, sizeOf: () => 1 })).toThrow("exists");
  });
});

describe("jsonBytes", () => {
  it("is the UTF-8 size of the value's JSON, Maps and Sets by their entries", () => {
    expect(jsonBytes({ a: "夜曲" })).toBe(Buffer.byteLength('{"a":"夜曲"}'));
    expect(jsonBytes(new Map([["k", { n: 1 }]]))).toBe(Buffer.byteLength('[["k",{"n":1}]]'));
    expect(jsonBytes(new Set([1, 2]))).toBe(5);
    expect(jsonBytes(12345)).toBe(5);
    expect(jsonBytes(null)).toBe(4);
    expect(jsonBytes(undefined)).toBe(0);
  });

  it("bounds a cache of plain data in bytes: many rows evict the oldest", async () => {
    const cache = new Cache<{ title: string }>({ name: "rows", maxEntries: 1_000, maxBytes: 10_000, sizeOf: jsonBytes });
    for (let i = 0; i < 500; i++) await cache.get(`row:${i}`, async () => ({ title: "夜".repeat(30) + i }));
    const { entries, bytes } = cache.stats();
    expect(bytes).toBeLessThanOrEqual(10_000);
    expect(entries).toBeLessThan(500);
    expect(cache.peek("row:499")).toBeDefined();
    expect(cache.peek("row:0")).toBeUndefined();
  });
});
