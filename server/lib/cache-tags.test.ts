import { describe, expect, it } from "vitest";
import { inProcessBus } from "../events/bus.js";
import type { CatalogueEvent } from "../events/catalogue-events.js";
import { Cache, CacheRegistry, type Tag, type TagPlan, tagWith } from "./cache.js";
import { planOf, registryFollowing, tags } from "./cache-tags.js";

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A registry on a fake clock with a cache whose values are their key, tagged as `tagsOf` says. */
function setup(tagsOf: (key: string) => Tag[] = (key) => [key], options: { freshMs?: number; staleMs?: number } = {}) {
  let clock = 0;
  const registry = new CacheRegistry({ now: () => clock });
  const cache = registry.create<string>({ name: "values", maxEntries: 100, maxBytes: 100_000, sizeOf: (v) => v.length, tagsOf: (_v, key) => tagsOf(key), ...options });
  let loads = 0;
  const get = (key: string, c: Cache<string> = cache) =>
    c.get(key, async () => {
      loads++;
      return key;
    });
  return { registry, cache, get, loads: () => loads, tick: (ms: number) => (clock += ms) };
}

describe("dropping by tags", () => {
  it("drops exactly the values carrying one of the tags, and counts them", async () => {
    const c = setup((key) => key.split("+"));
    for (const key of ["a", "b", "a+c", "d"]) await c.get(key);
    expect(c.cache.dropTags(["a", "x"])).toBe(2);
    expect(["a", "b", "a+c", "d"].filter((k) => c.cache.peek(k) !== undefined)).toEqual(["b", "d"]);
    expect(c.cache.stats()).toMatchObject({ entries: 2, drops: 2 });
    // A dropped value's tags go with it: loaded again, it carries them anew.
    await c.get("a");
    expect(c.cache.dropTags(["a"])).toBe(1);
  });

  it("a value carries the tags of every cached value its load read, and of tagWith", async () => {
    const c = setup();
    const pages = c.registry.create<string>({ name: "pages", maxEntries: 10, maxBytes: 10_000, sizeOf: (v) => v.length });
    const page = () =>
      pages.get("page", async () => {
        tagWith("layout");
        const [nav, item] = await Promise.all([c.get("nav"), c.get("item:1")]);
        return `${nav}|${item}`;
      });
    expect(await page()).toBe("nav|item:1");
    expect([...pages.tagsOf("page")!].sort()).toEqual(["item:1", "layout", "nav"]);
    // A read of a kept value (a hit) passes its tags too.
    c.registry.apply({ drop: ["layout"], stale: [] });
    await page();
    expect([...pages.tagsOf("page")!].sort()).toEqual(["item:1", "layout", "nav"]);
    c.registry.apply({ drop: ["item:2"], stale: [] });
    expect(pages.peek("page")).toBeDefined();
    c.registry.apply({ drop: ["item:1"], stale: [] });
    expect(pages.peek("page")).toBeUndefined();
    expect(c.cache.peek("nav")).toBe("nav");
  });

  it("a value's tags are those its load had when it arrived: background work it left running adds none", async () => {
    const c = setup();
    const lists = c.registry.create<string>({ name: "lists", maxEntries: 10, maxBytes: 10_000, sizeOf: (v) => v.length });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    await lists.get("all", async () => {
      // Started, not awaited (as the categories warm their counts).
      void c.cache.get("late", async () => {
        await gate;
        return "late";
      });
      return "all";
    });
    open();
    await settle();
    expect(c.cache.peek("late")).toBe("late");
    expect([...lists.tagsOf("all")!]).toEqual([]);
    lists.dropTags(["late"]);
    expect(lists.peek("all")).toBe("all");
  });

  it("drops a load in flight on any drop (it may have read the old data): its callers still get it", async () => {
    const c = setup();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const loading = c.cache.get("slow", async () => {
      await gate;
      return "old";
    });
    c.cache.dropTags(["unrelated"]);
    open();
    expect(await loading).toBe("old");
    expect(c.cache.peek("slow")).toBeUndefined();
  });

  it("does not keep a background refresh that read a tag dropped while it ran", async () => {
    const c = setup((key) => [key], { freshMs: 1000, staleMs: 10_000 });
    await c.get("home");
    c.tick(1001);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const read = () =>
      c.cache.get("home", async () => {
        tagWith("item:5");
        await gate;
        return "home refreshed";
      });
    expect(await read()).toBe("home"); // stale, served at once; the refresh waits at the gate
    c.cache.dropTags(["item:5"]); // the kept value does not carry it: stays
    expect(c.cache.peek("home")).toBe("home");
    open();
    await settle();
    expect(c.cache.peek("home")).toBe("home");
    // The next request refreshes again, and that one is kept.
    await read();
    await settle();
    expect(c.cache.peek("home")).toBe("home refreshed");
  });

  it("marks values stale by tag: served at once, refreshed in the background", async () => {
    const c = setup((key) => [key], { freshMs: 1000, staleMs: 10_000 });
    await c.get("charts");
    await c.get("other");
    c.cache.staleTags(["charts"]);
    expect(await c.get("charts")).toBe("charts");
    await settle();
    expect(c.loads()).toBe(3);
    expect(c.cache.stats()).toMatchObject({ refreshes: 1, drops: 0 });
    await c.get("other");
    expect(c.loads()).toBe(3);
  });

  it("a value's own fresh time (freshFor); zero or less is not kept", async () => {
    let clock = 0;
    const cache = new Cache<number>({ name: "own", maxEntries: 10, maxBytes: 1000, sizeOf: () => 8, freshFor: (ms) => ms, now: () => clock });
    await cache.get("short", async () => 10);
    await cache.get("gone", async () => 0);
    expect(cache.peek("short")).toBe(10);
    expect(cache.has("gone")).toBe(false);
    clock = 11;
    expect(cache.has("short")).toBe(false);
  });
});

describe("change events → tags (cache-tags.ts)", () => {
  it("the registry follows the bus: an item edit drops what shows the item or lists its category, nothing else", async () => {
    const bus = inProcessBus();
    const registry = registryFollowing(bus);
    const tagged: Record<string, Tag[]> = {
      suite7: [tags.item(7), tags.counts(7), tags.category(2)],
      suite8: [tags.item(8), tags.counts(8), tags.category(3)],
      category2: [tags.category(2), tags.nav],
      category3: [tags.category(3), tags.nav],
      nav: [tags.nav],
      settings: [tags.settings],
    };
    const cache = registry.create<string>({ name: "all", maxEntries: 100, maxBytes: 100_000, sizeOf: (v) => v.length, tagsOf: (_v, key) => tagged[key]! });
    const fill = () => Promise.all(Object.keys(tagged).map((key) => cache.get(key, async () => key)));
    const kept = () => Object.keys(tagged).filter((key) => cache.peek(key) !== undefined);

    await fill();
    await bus.publish({ type: "items", action: "updated", ids: [7], categoryIds: [2], siteCodes: [] });
    expect(kept()).toEqual(["suite8", "category3", "nav", "settings"]);
    await fill();
    await bus.publish({ type: "itemCounts", ids: [8] });
    expect(kept()).toEqual(["suite7", "category2", "category3", "nav", "settings"]);
    await fill();
    await bus.publish({ type: "settings", keys: ["footer"] });
    expect(kept()).toEqual(["suite7", "suite8", "category2", "category3", "nav"]);
    await fill();
    await bus.publish({ type: "charts" });
    expect(kept()).toHaveLength(6);
  });

  it("a new event type drops only the values carrying its tags; the rest stay kept", async () => {
    // An event the catalogue does not have yet: comments moderated on some items.
    type WithComments = CatalogueEvent | { type: "comments"; ids: number[] };
    const plan = (event: WithComments): TagPlan => (event.type === "comments" ? { drop: event.ids.map(tags.counts), stale: [] } : planOf(event));
    const listeners: ((event: WithComments) => void)[] = [];
    const bus = { subscribe: (listener: (event: WithComments) => void) => (listeners.push(listener), () => {}) };
    const registry = new CacheRegistry();
    registry.follow(bus, plan);
    const suites = registry.create<string>({ name: "suites", maxEntries: 10, maxBytes: 10_000, sizeOf: (v) => v.length, tagsOf: (_v, id) => [tags.item(Number(id)), tags.counts(Number(id))] });
    const pages = registry.create<string>({ name: "pages", maxEntries: 10, maxBytes: 10_000, sizeOf: (v) => v.length, tagsOf: () => [tags.nav] });
    const page = (id: number) => pages.get(`/site/${id}`, async () => `page of ${await suites.get(String(id), async () => `suite ${id}`)}`);
    const login = () => pages.get("/login", async () => "login");
    await Promise.all([page(1), page(2), login()]);

    for (const listener of listeners) listener({ type: "comments", ids: [1] });
    expect(suites.peek("1")).toBeUndefined();
    expect(pages.peek("/site/1")).toBeUndefined();
    expect(suites.peek("2")).toBe("suite 2");
    expect(pages.peek("/site/2")).toBe("page of suite 2");
    expect(pages.peek("/login")).toBe("login");
    expect(registry.stats().map((s) => [s.name, s.drops])).toEqual([
      ["suites", 1],
      ["pages", 1],
    ]);
  });
});
