import { categoryPath, suitePath } from "@contracts/paths";
import { eq } from "drizzle-orm";
import { rm } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ensureWebBuild } from "../../e2e/web-server.js";
import { demoMediaFixture } from "../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../db/seed/index.js";
import { categories } from "../db/schema/index.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { testEngines } from "../testing/test-db.js";

const SUITES = 6;
const CATEGORY_PAGES = 2;

/** The app with pre-render on, a seeded catalogue with plays and charts, and a render counter. */
async function preparedApp(engine: Parameters<typeof createTestApp>[0], env: Record<string, string> = {}, hold?: { gate: Promise<void> }) {
  const t = await createTestApp(engine, {
    web: true,
    env: { PRERENDER_SUITES: String(SUITES), PRERENDER_CATEGORY_PAGES: String(CATEGORY_PAGES), ...env },
    // A request that stays in flight until the test lets it go.
    extend: (app) => {
      app.get("/api/_hold", { config: { access: "public" }, schema: { response: { 200: z.object({ ok: z.boolean() }) } } }, async () => {
        await hold?.gate;
        return { ok: true };
      });
    },
  });
  await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 40, singles: 10, plays: 400, writes: t.app.services.writes });
  await t.app.services.charts.rebuildCharts();
  const counter = { renders: 0 };
  // Every render reads the navigation (the layout's loader): counts renders, passes' and requests' alike.
  const { navigation } = t.app.services;
  const topNav = navigation.topNav;
  navigation.topNav = () => {
    counter.renders++;
    return topNav();
  };
  return { t, counter };
}

/**
 * The kept pages' background pre-render (ADR 0038) on the real app with the production web
 * build: after start and after a change it renders the most-played suites and the first pages
 * of every category, so their first request is served from memory; it waits for requests in
 * flight, stays within its share of the byte cap, and stops with the app.
 */
describe.each(testEngines())("background pre-render on %s", (engine) => {
  let t: TestApp;
  let counter: { renders: number };
  const hold = { gate: Promise.resolve() };
  const caches = (app = t) => ["pages", "pages-until-changed"].map((name) => app.app.services.caches.get(name)!);
  const stats = () => {
    const [a, b] = caches().map((c) => c.stats());
    return { hits: a!.hits + b!.hits, misses: a!.misses + b!.misses };
  };
  const kept = (key: string, app = t) => caches(app).some((c) => c.peek(key) !== undefined);
  const get = async (url: string) => {
    const res = await t.app.inject({ url, headers: { "accept-encoding": "gzip" } });
    return { res, html: res.headers["content-encoding"] === "gzip" ? gunzipSync(res.rawPayload).toString() : res.body };
  };
  /** What the pass is meant to render: [url, cache key]. */
  const expected = async () => {
    const ids = await t.app.services.charts.mostPlayed(SUITES);
    const listed = await t.app.services.categories.listed();
    return [
      ...ids.map((id) => [suitePath(id), `sutie:${id}`]),
      ...listed.flatMap(({ diyname, pages }) =>
        Array.from({ length: Math.min(pages, CATEGORY_PAGES) }, (_, i) => [`${categoryPath(diyname)}?page=${i + 1}`, `sort:${diyname}:${i + 1}:new`]),
      ),
      ["/", "home"],
      ["/login", "/login"],
    ];
  };

  beforeAll(async () => {
    ensureWebBuild();
    ({ t, counter } = await preparedApp(engine, {}, hold));
  }, 120_000);

  afterAll(() => t?.close());

  it("renders the most-played suites and the first pages of every category; their first request is served from memory", async () => {
    await t.app.pagePrerender!.idle();
    const pages = await expected();
    expect(pages.filter(([url]) => url!.startsWith("/sutie/"))).toHaveLength(SUITES);
    expect(pages.filter(([, key]) => key!.endsWith(":2:new")).length).toBeGreaterThan(0);
    for (const [url, key] of pages) expect(kept(key!), url).toBe(true);
    const before = { ...stats(), renders: counter.renders };
    for (const [url] of pages) {
      const { res, html } = await get(url!);
      expect(res.statusCode, url).toBe(200);
      // What a visitor is shown: the exact view count, not the placeholder the page was kept with.
      expect(html, url).not.toContain("987654321");
    }
    expect(stats()).toEqual({ hits: before.hits + pages.length, misses: before.misses });
    expect(counter.renders).toBe(before.renders);
    // Only what the list names: no other page, no other address form of a suite.
    expect(kept(`site:${(await t.app.services.charts.mostPlayed(1))[0]}`)).toBe(false);
  });

  it("renders the list before the app is ready (before listening) for PRERENDER_BEFORE_LISTEN_MS; with 0 only the first suite and category page", async () => {
    const pages = await expected();
    const env = { PRERENDER_SUITES: String(SUITES), PRERENDER_CATEGORY_PAGES: String(CATEGORY_PAGES) };
    // Another app on the same (seeded) database: its start finds the list.
    const patient = await createTestApp(engine, { web: true, database: t.database, env: { ...env, PRERENDER_BEFORE_LISTEN_MS: "60000" } });
    try {
      for (const [url, key] of pages) expect(kept(key!, patient), url).toBe(true);
    } finally {
      await patient.close();
    }
    const hasty = await createTestApp(engine, { web: true, database: t.database, env: { ...env, PRERENDER_BEFORE_LISTEN_MS: "0" } });
    try {
      const keptNow = pages.filter(([, key]) => kept(key!, hasty)).map(([url]) => url!);
      expect(keptNow.filter((url) => url.startsWith("/sutie/"))).toEqual([pages[0]![0]]);
      expect(keptNow.filter((url) => url.startsWith("/sort/"))).toHaveLength(1);
    } finally {
      await hasty.close();
    }
  });

  it("renders them again after a change event dropped them, before anyone asks", async () => {
    await t.app.pagePrerender!.idle();
    const pages = await expected();
    const [manyao] = await t.database.db.select().from(categories).where(eq(categories.diyname, "manyao"));
    const passRenders = t.app.pagePrerender!.renders;
    // A category rename drops every kept page (every page shows the navigation).
    await t.app.services.writes.updateCategory(manyao!.id, { name: "慢摇预渲染" });
    for (const [url, key] of pages) expect(kept(key!), url).toBe(false);
    await t.app.pagePrerender!.idle();
    expect(t.app.pagePrerender!.renders).toBeGreaterThanOrEqual(passRenders + pages.length);
    const before = { ...stats(), renders: counter.renders };
    for (const [url, key] of pages) {
      expect(kept(key!), url).toBe(true);
      expect((await get(url!)).html, url).toContain(">慢摇预渲染<");
    }
    expect(stats()).toEqual({ hits: before.hits + pages.length, misses: before.misses });
    expect(counter.renders).toBe(before.renders);
  });

  it("waits while a request is in flight, then renders", async () => {
    await t.app.pagePrerender!.idle();
    let release!: () => void;
    hold.gate = new Promise((resolve) => (release = resolve));
    const held = t.app.inject("/api/_hold");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [manyao] = await t.database.db.select().from(categories).where(eq(categories.diyname, "manyao"));
    const rendersBefore = counter.renders;
    await t.app.services.writes.updateCategory(manyao!.id, { name: "慢摇串烧" });
    // Past the pass's delay (1 s): still nothing rendered while the request is in flight.
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    expect(counter.renders).toBe(rendersBefore);
    expect(kept("home")).toBe(false);
    release();
    expect((await held).statusCode).toBe(200);
    await t.app.pagePrerender!.idle();
    expect(counter.renders).toBeGreaterThan(rendersBefore);
    expect(kept("home")).toBe(true);
  });
});

describe.each(testEngines())("background pre-render bounds on %s", (engine) => {
  it("fills a cache only up to half its byte cap, and renders nothing after app.close()", async () => {
    ensureWebBuild();
    // 200 KB: each cache 100 KB, pre-rendered up to 50 KB (pages of ~7-30 KB): fewer than the list.
    const hold = { gate: Promise.resolve() };
    const { t, counter } = await preparedApp(engine, { PAGE_CACHE_MAX_BYTES: "200000", PRERENDER_SUITES: "200", PRERENDER_CATEGORY_PAGES: "20" }, hold);
    let release!: () => void;
    try {
      await t.app.pagePrerender!.idle();
      const listed = await t.app.services.categories.listed();
      const wanted = { pages: listed.reduce((n, c) => n + Math.min(c.pages, 20), 0), "pages-until-changed": (await t.app.services.charts.mostPlayed(200)).length };
      for (const name of ["pages", "pages-until-changed"] as const) {
        const cache = t.app.services.caches.get(name)!.stats();
        expect(cache.evictions, name).toBe(0);
        expect(cache.bytes, name).toBeLessThan(cache.maxBytes);
        expect(cache.entries, name).toBeGreaterThan(1);
        expect(cache.entries, name).toBeLessThan(wanted[name]);
      }
      // A change starts a pass, which waits for the request in flight; the app closes meanwhile.
      hold.gate = new Promise((resolve) => (release = resolve));
      const held = t.app.inject("/api/_hold");
      const [manyao] = await t.database.db.select().from(categories).where(eq(categories.diyname, "manyao"));
      await t.app.services.writes.updateCategory(manyao!.id, { name: "慢摇关闭前" });
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      const closed = t.app.close();
      await new Promise((resolve) => setTimeout(resolve, 10));
      release();
      await held;
      await closed;
    } finally {
      release?.();
      await t.app.close();
    }
    // The pass would render the dropped pages now that nothing is in flight: it ended with the app.
    const atClose = counter.renders;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(counter.renders).toBe(atClose);
    expect(t.app.services.caches.get("pages")!.peek("home")).toBeUndefined();
    await t.database.close();
    await rm(t.dataDir, { recursive: true, force: true });
  }, 120_000);
});
