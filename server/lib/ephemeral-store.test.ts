import { describe, expect, it } from "vitest";
import { adjustableClock } from "./clock.js";
import { memoryEphemeralStore } from "./ephemeral-store.js";

describe("memoryEphemeralStore", () => {
  it("keeps a value until its time is up", async () => {
    const clock = adjustableClock();
    const store = memoryEphemeralStore({ clock });
    await store.set("captcha:a", "x7Kp", 5 * 60_000);
    expect(await store.get("captcha:a")).toBe("x7Kp");
    clock.advance(5 * 60_000);
    expect(await store.get("captcha:a")).toBeUndefined();
  });

  it("take gives a single-use value once", async () => {
    const store = memoryEphemeralStore();
    await store.set("k", "v", 60_000);
    expect(await store.take("k")).toBe("v");
    expect(await store.take("k")).toBeUndefined();
  });

  it("counts in a fixed window that later increments do not extend", async () => {
    const clock = adjustableClock();
    const store = memoryEphemeralStore({ clock });
    expect(await store.increment("fail:ip", 60_000)).toBe(1);
    clock.advance(59_000);
    expect(await store.increment("fail:ip", 60_000)).toBe(2);
    expect(await store.count("fail:ip")).toBe(2);
    clock.advance(1_000);
    expect(await store.count("fail:ip")).toBe(0);
    expect(await store.increment("fail:ip", 60_000)).toBe(1);
    await store.delete("fail:ip");
    expect(await store.count("fail:ip")).toBe(0);
  });

  it("stays within its entry bound, dropping the oldest first", async () => {
    const store = memoryEphemeralStore({ maxEntries: 3 });
    for (const k of ["a", "b", "c", "d"]) await store.set(k, k, 60_000);
    expect(await store.get("a")).toBeUndefined();
    expect(await store.get("d")).toBe("d");
  });

  it("stays within its bytes, dropping the oldest first, and gives back what expired, was taken or deleted", async () => {
    let now = 0;
    const store = memoryEphemeralStore({ clock: () => new Date(now), maxBytes: 10_000 });
    for (let i = 0; i < 1_000; i++) await store.set(`captcha:${i}`, "x".repeat(40), 60_000);
    expect(store.bytes).toBeLessThanOrEqual(10_000);
    expect(await store.get("captcha:0")).toBeUndefined();
    expect(await store.get("captcha:999")).toBe("x".repeat(40));
    const held = store.bytes;
    await store.take("captcha:999");
    await store.delete("captcha:998");
    expect(store.bytes).toBeLessThan(held);
    await store.increment("fails", 1_000);
    now = 120_000; // all expired: a read drops each, a sweep every 1000 writes drops the rest
    for (let i = 0; i < 1_000; i++) await store.set(`n:${i}`, "", 1);
    now = 240_000;
    for (let i = 0; i < 1_000; i++) await store.set(`m:${i}`, "", 1_000_000);
    expect(store.bytes).toBeLessThanOrEqual(10_000);
    expect(await store.get("captcha:997")).toBeUndefined();
  });
});
