import { describe, expect, it } from "vitest";
import { adjustableClock } from "../../lib/clock.js";
import { memoryPlayStartStore } from "./start-store.js";

describe("the in-process play start store", () => {
  const start = (startedAt: number, visitorId = "v") => ({ visitorId, itemId: 1, startedAt });

  it("keeps the first start of a playback and forgets it when told", async () => {
    const store = memoryPlayStartStore(adjustableClock());
    const now = Date.now();
    expect(await store.add("p", start(now))).toEqual(start(now));
    expect(await store.add("p", start(now + 5_000, "other"))).toEqual(start(now));
    expect(await store.get("p")).toEqual(start(now));
    await store.delete("p");
    expect(await store.get("p")).toBeUndefined();
  });

  it("holds at most `max` starts, the oldest going first", async () => {
    const store = memoryPlayStartStore(adjustableClock(), { max: 3 });
    const now = Date.now();
    for (const id of ["a", "b", "c", "d"]) await store.add(id, start(now));
    expect(await store.get("a")).toBeUndefined();
    for (const id of ["b", "c", "d"]) expect(await store.get(id), id).toBeDefined();
  });

  it("drops starts older than its time to live, by the injected clock", async () => {
    const clock = adjustableClock();
    const store = memoryPlayStartStore(clock, { ttlMs: 60_000 });
    await store.add("old", start(clock().getTime()));
    clock.advance(30_000);
    await store.add("young", start(clock().getTime()));
    clock.advance(31_000);
    expect(await store.get("old")).toBeUndefined();
    expect(await store.get("young")).toBeDefined();
    // An expired start does not block a new one under the same id.
    expect((await store.add("old", start(clock().getTime(), "w"))).visitorId).toBe("w");
  });
});
