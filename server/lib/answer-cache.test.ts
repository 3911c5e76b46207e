import { describe, expect, it } from "vitest";
import { answerCache } from "./answer-cache.js";

/** A cache on a fake clock whose loads return `${key}${n}` (n counts all loads) and can be held. */
function setup(options = { freshMs: 100, maxStaleMs: 1000, maxEntries: 3 }) {
  let clock = 0;
  const loads: string[] = [];
  const refreshErrors: string[] = [];
  let failing = false;
  let gate: Promise<void> = Promise.resolve();
  const cache = answerCache<string>({ ...options, onRefreshError: (key) => refreshErrors.push(key) }, () => clock);
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

describe("answerCache", () => {
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

  it("makes the caller wait for a new load past maxStaleMs", async () => {
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

  it("forget and invalidate make the next request load anew, and beat a refresh in flight", async () => {
    const c = setup();
    await c.get("a");
    await c.get("b");
    c.cache.forget("a");
    expect(await c.get("a")).toBe("a3");
    expect(await c.get("b")).toBe("b2");
    c.tick(101);
    const release = c.hold();
    await c.get("b"); // starts a refresh that read the data before the write
    c.cache.invalidate();
    release();
    await settle();
    expect(await c.get("b")).toBe("b5");
  });
});
