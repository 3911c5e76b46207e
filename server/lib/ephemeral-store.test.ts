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
});
