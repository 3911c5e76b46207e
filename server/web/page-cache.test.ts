import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureWebBuild } from "../../e2e/web-server.js";
import { formatCount } from "../../web/app/components/suite/format";
import { demoMediaFixture } from "../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../db/seed/index.js";
import { blockItems, categories } from "../db/schema/index.js";
import { queryRows } from "../db/sql.js";
import { createTestAdmin } from "../testing/admins.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { testEngines } from "../testing/test-db.js";
import { testVisitor } from "../testing/visitors.js";
import type { CatalogueEvent } from "../events/catalogue-events.js";
import { tags } from "../lib/cache-tags.js";

/** A small byte cap, so a few dozen pages go past it. */
const MAX_BYTES = 300_000;

/**
 * Kept pages (ADR 0033) on the real app with the production web build: served from memory, a
 * change through the write service shows on the very next request, a suite page is the same bytes
 * for everyone and counts no view (ADR 0053), and the CSP allows exactly the scripts of the body sent.
 */
describe.each(testEngines())("kept pages on %s", (engine) => {
  let t: TestApp;
  const caches = () => ["pages", "pages-until-changed"].map((name) => t.app.services.caches.get(name)!);
  /** Both caches' counters together. */
  const stats = () => {
    const [a, b] = caches().map((c) => c.stats());
    return { entries: a!.entries + b!.entries, hits: a!.hits + b!.hits, misses: a!.misses + b!.misses };
  };
  const peek = (key: string) => caches().find((c) => c.peek(key) !== undefined)?.peek(key);
  const get = async (url: string, headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET") => {
    const res = await t.app.inject({ method, url, headers: { "accept-encoding": "gzip, br", ...headers } });
    const raw = res.rawPayload;
    const encoding = raw.length > 0 ? res.headers["content-encoding"] : undefined;
    const html = encoding === "gzip" ? gunzipSync(raw).toString() : encoding === "br" ? brotliDecompressSync(raw).toString() : res.body;
    return { res, html, csp: String(res.headers["content-security-policy"] ?? "") };
  };
  /** The pages kept once the app was ready (before the seed's change events dropped them). */
  let warmed: string[] = [];
  /** Every render reads the navigation (the layout's loader): counts renders. */
  let renders = 0;
  /** Loads a page and checks the next request of it is served from memory, with the same bytes. */
  const keptNow = async (url: string) => {
    const first = await get(url);
    const before = { ...stats(), renders };
    const again = await get(url);
    expect(stats().hits, url).toBe(before.hits + 1);
    expect(stats().misses, url).toBe(before.misses);
    expect(renders, url).toBe(before.renders);
    return { first, again };
  };
  const categoryOf = async (diyname: string) => (await t.database.db.select().from(categories).where(eq(categories.diyname, diyname)))[0]!;
  const newestIn = async (categoryId: number) =>
    (
      await queryRows<{ id: number; title: string }>(
        t.database.db,
        sql`select id, title from items where category_id = ${categoryId} and status = 'normal' order by published_at desc, id desc limit 1`,
      )
    )[0]!;

  beforeAll(async () => {
    ensureWebBuild();
    t = await createTestApp(engine, { web: true, env: { PAGE_CACHE_MAX_BYTES: String(MAX_BYTES) } });
    warmed = ["home", "/login", "/forgot-password", "404"].filter((key) => peek(key));
    await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 40, singles: 10, plays: 0, writes: t.app.services.writes });
    const { navigation } = t.app.services;
    const topNav = navigation.topNav;
    navigation.topNav = () => {
      renders++;
      return topNav();
    };
  }, 120_000);

  afterAll(() => t?.close());

  it("renders the pages most asked for before the first request", () => {
    expect(warmed).toEqual(["home", "/login", "/forgot-password", "404"]);
  });

  it("serves a page's second request from memory; junk query parameters and other spellings add no entry", async () => {
    for (const url of ["/", "/sort/manyao", "/login", "/forgot-password", "/no-such-page", "/site/1.html", "/sutie/1.html"]) await keptNow(url);
    const { entries, misses } = stats();
    for (const url of ["/?utm_source=x&a=1", "/sort/manyao?page=1&filter=new&junk=2", "/sort/manyao?junk=" + "x".repeat(500), "/login?next=%2Fuser", "/other/missing", "/site/1.html?x=1"]) {
      expect((await get(url)).res.statusCode, url).toBeLessThan(500);
    }
    expect(stats()).toMatchObject({ entries, misses });
    // Every missing page is one entry, whatever the address.
    expect((await get("/no/such/page")).res.statusCode).toBe(404);
    expect((await get("/sort/nope")).res.statusCode).toBe(404);
    expect((await get("/sort/nope2?page=3")).res.statusCode).toBe(404);
    expect(stats().entries).toBe(entries + 1);
    // What a page reads from the query is its key.
    expect((await get("/sort/manyao?page=2")).html).not.toBe((await get("/sort/manyao")).html);
    expect(stats().entries).toBe(entries + 2);
  });

  it("shares one render between concurrent misses", async () => {
    const before = stats();
    const rendersBefore = renders;
    const answers = await Promise.all(Array.from({ length: 8 }, () => get("/sort/chuanshao?filter=hot")));
    expect(new Set(answers.map((a) => a.html)).size).toBe(1);
    expect(renders).toBe(rendersBefore + 1);
    expect(stats().misses).toBe(before.misses + 1);
    expect(stats().hits).toBe(before.hits + 7);
  });

  it("never keeps member or admin pages, and never a failed render", async () => {
    const { entries } = stats();
    for (const url of ["/user/profile", "/panda", "/panda/login"]) {
      // Rendered per request: a fresh nonce each time, the one its inline scripts carry.
      const [a, b] = [await get(url), await get(url)];
      const nonce = /script-src 'self' 'nonce-([A-Za-z0-9_-]{20,})'/.exec(a.csp)?.[1];
      expect(nonce, url).toBeTruthy();
      expect(a.html, url).toContain(`nonce="${nonce}"`);
      expect(b.csp, url).not.toBe(a.csp);
    }
    // React Router's own requests of a hydrated page: route data and lazy route discovery.
    for (const url of ["/_root.data", "/login.data", "/sort/manyao.data", "/__manifest?p=%2Flogin&version=1"]) {
      expect(String((await get(url)).res.headers["content-type"]), url).not.toMatch(/text\/html/);
    }
    expect(stats().entries).toBe(entries);
    const home = t.app.services.home;
    const page = home.page;
    await t.app.services.writes.updateBlockItem((await t.database.db.select().from(blockItems))[0]!.id, { name: "坏掉之前" });
    home.page = () => Promise.reject(new Error("database down"));
    try {
      const failed = await get("/");
      expect(failed.res.statusCode).toBe(500);
      // The visitor can quote the request's id (ADR 0044): the one in the header and the log.
      expect(failed.html).toContain(`请求编号：${failed.res.headers["x-request-id"]}`);
      expect(peek("home")).toBeUndefined();
    } finally {
      home.page = page;
    }
    expect((await get("/")).res.statusCode).toBe(200);
    expect(peek("home")).toBeDefined();
  });

  it("allows by hash exactly the inline scripts of the body sent, and carries no nonce", async () => {
    const id = (await newestIn((await categoryOf("manyao")).id)).id;
    for (const url of ["/", "/sort/manyao", "/login", "/no-such-page", `/site/${id}.html`, "/site/99999.html"]) {
      const { html, csp, res } = await get(url);
      const allowed = new Set([...csp.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]));
      const scripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(scripts.length, url).toBeGreaterThan(2);
      expect(new Set(scripts.map((s) => createHash("sha256").update(s).digest("base64"))), url).toEqual(allowed);
      expect(csp, url).not.toMatch(/nonce|unsafe-inline'[^;]*;\s*style/);
      expect(html, url).not.toContain("nonce=");
      expect(res.headers["content-type"], url).toBe("text/html; charset=utf-8");
    }
  });

  it("sends a suite page as the same bytes to every visitor, counting no view; new visitors get the cookie in a header", async () => {
    const id = (await newestIn((await categoryOf("manyao")).id)).id;
    const url = `/site/${id}.html`;
    const shows = (html: string, views: number) => {
      expect(html).toContain(`浏览 <!-- -->${formatCount(views)}<`);
      const data = html.slice(html.indexOf("streamController.enqueue("));
      expect(data).toMatch(new RegExp(`[,\\[]${views}[,\\]]`));
    };
    const countNow = async () => (await t.app.services.suites.current(id)).views;
    const stored = async () =>
      (
        await queryRows<{ n: number }>(
          t.database.db,
          sql`select view_count + coalesce((select views from item_view_deltas where item_id = ${id}), 0) as n from items where id = ${id}`,
        )
      )[0]!.n;
    await t.app.services.suites.flushViews();
    const start = await countNow();
    const storedBefore = await stored();
    // A new visitor: given the visitor cookie, nothing counted; the page shows the count it was made with.
    const fresh = await get(url);
    expect(String(fresh.res.headers["set-cookie"])).toMatch(/^vid=/);
    shows(fresh.html, start);
    // 60 cookie-less GETs of the page and of its API add no view (issue 23).
    for (let i = 0; i < 60; i++) {
      expect((await get(url)).res.statusCode).toBe(200);
      expect((await t.app.inject({ url: `/api/forntend/getmusicinfo?id=${id}` })).statusCode).toBe(200);
    }
    await t.app.services.suites.flushViews();
    expect(await stored()).toBe(storedBefore);
    expect(await countNow()).toBe(start);
    // A returning visitor: the very same bytes, ETag and CSP; no cookie set again.
    const visitor = testVisitor(t.app, "page-cache-visitor");
    const first = await get(url, { cookie: visitor.cookie });
    expect(first.res.headers["set-cookie"]).toBeUndefined();
    expect(first.html).toBe(fresh.html);
    expect(first.res.headers.etag).toBe(fresh.res.headers.etag);
    expect(first.csp).toBe(fresh.csp);
    // The beacon counts (once a day); the page's bytes stay the same, so a 304 still holds.
    const beacon = await t.app.inject({ method: "POST", url: "/api/forntend/view", payload: { id }, headers: { cookie: visitor.cookie } });
    expect(beacon.json().data).toEqual({ id, views: start + 1, counted: true });
    const revalidated = await get(url, { cookie: visitor.cookie, "if-none-match": String(first.res.headers.etag) });
    expect(revalidated.res.statusCode).toBe(304);
    expect(revalidated.res.rawPayload.length).toBe(0);
    expect(revalidated.csp).toBe(first.csp);
    expect(await stored()).toBe(storedBefore + 1);
    // Compressed once: br and gzip both the same page; without either, plain.
    const gzip = await get(url, { "accept-encoding": "gzip" });
    expect(gzip.res.headers["content-encoding"]).toBe("gzip");
    expect(gzip.html).toBe(first.html);
    const plain = await get(url, { cookie: visitor.cookie, "accept-encoding": "identity" });
    expect(plain.res.headers["content-encoding"]).toBeUndefined();
    expect(plain.html).toBe(first.html);
    // HEAD: the headers of the page, no body.
    const head = await get(url, { cookie: visitor.cookie }, "HEAD");
    expect(head.res.statusCode).toBe(200);
    expect(head.res.headers.etag).toBe(first.res.headers.etag);
    expect(head.res.rawPayload.length).toBe(0);
  });

  it("makes a suite page again when the suites cache re-read it changed, not when it re-read it the same", async () => {
    const id = (await newestIn((await categoryOf("digao")).id)).id;
    const url = `/site/${id}.html`;
    await keptNow(url);
    const suites = t.app.services.caches.get("suites")!;
    suites.delete(String(id)); // as its 60 s refresh does
    const before = renders;
    await get(url);
    expect(renders).toBe(before);
    // An edit by hand in SQL, seen when the suite is read again.
    await t.database.db.execute(sql`update items set title = '手改的标题' where id = ${id}`); // behind the write service's back
    suites.delete(String(id));
    expect((await get(url)).html).toContain("手改的标题");
    expect(renders).toBe(before + 1);
  });

  it("answers 304 for an unchanged page and HEAD with its headers", async () => {
    const { first } = await keptNow("/");
    expect(first.res.headers["content-encoding"]).toBe("br");
    const etag = String(first.res.headers.etag);
    const revalidated = await get("/", { "if-none-match": etag });
    expect(revalidated.res.statusCode).toBe(304);
    expect(revalidated.csp).toBe(first.csp);
    const head = await get("/", {}, "HEAD");
    expect(head.res.statusCode).toBe(200);
    expect(head.res.headers.etag).toBe(etag);
    expect(head.res.rawPayload.length).toBe(0);
    const gzip = await get("/", { "accept-encoding": "gzip" });
    expect(gzip.res.headers["content-encoding"]).toBe("gzip");
    expect(gzip.html).toBe(first.html);
    expect((await get("/no-such-page", { "if-none-match": etag })).res.statusCode).toBe(404);
  });

  it("shows a change through the write service on the very next request of every kept page that shows it", async () => {
    const manyao = await categoryOf("manyao");
    const item = await newestIn(manyao.id);
    const pages = ["/", "/sort/manyao", `/site/${item.id}.html`, "/login", "/no-such-page"];
    for (const url of pages) await keptNow(url);

    // A category rename: the navigation of every page, the home lists, its page, the suite's channel.
    await t.app.services.writes.updateCategory(manyao.id, { name: "慢摇改名" });
    for (const url of pages) {
      const { html } = await get(url);
      expect(html, url).toContain(">慢摇改名<");
      expect(html, url).not.toContain(`>${manyao.name}<`);
    }

    // A suite edit: its page, the home lists and its category page.
    for (const url of pages) await keptNow(url);
    await t.app.services.writes.updateItem(item.id, { title: "改过的套曲标题" });
    for (const url of ["/", "/sort/manyao", `/site/${item.id}.html`]) expect((await get(url)).html, url).toContain("改过的套曲标题");
    expect((await get("/login")).html).not.toContain("改过的套曲标题");

    // Its likes: the suite page.
    const { again } = await keptNow(`/site/${item.id}.html`);
    const likes = Number(/点赞 <!-- -->(\d+)</.exec(again.html)![1]);
    await t.app.services.writes.addToItemCounts(item.id, { likes: 1 });
    expect((await get(`/site/${item.id}.html`)).html).toContain(`点赞 <!-- -->${likes + 1}<`);

    // A block: the home page.
    await keptNow("/");
    const [block] = await t.database.db.select().from(blockItems);
    await t.app.services.writes.updateBlockItem(block!.id, { name: "换了的推荐位" });
    expect((await get("/")).html).toContain("换了的推荐位");

    // The site settings: every page's footer.
    for (const url of pages) await keptNow(url);
    const admin = await createTestAdmin(t.database.db);
    const site = await t.app.services.siteSettings.get();
    await t.app.services.siteSettings.update({ adminId: admin.id, ip: "127.0.0.1" }, { ...site, footer: "新的页脚文字" });
    for (const url of pages) expect((await get(url)).html, url).toContain("新的页脚文字");
  });

  it("drops for a new event type only the pages carrying its tags; the rest stay kept", async () => {
    // An event the catalogue does not have yet (comments moderated on an item): its plan names
    // the item's counts, and the app's registry follows the app's bus with it.
    type Comments = { type: "comments"; ids: number[] };
    const { caches, bus } = t.app.services;
    const stop = caches.follow(bus as unknown as { subscribe(l: (e: Comments) => void): () => void }, (event) =>
      event.type === "comments" ? { drop: event.ids.map(tags.counts), stale: [] } : { drop: [], stale: [] },
    );
    try {
      const manyao = await categoryOf("manyao");
      const item = await newestIn(manyao.id);
      const [{ id: other }] = await queryRows<{ id: number }>(t.database.db, sql`select id from items where status = 'normal' and id <> ${item.id} limit 1`);
      const pages = ["/", "/sort/manyao", `/site/${item.id}.html`, `/site/${other}.html`, "/login"];
      for (const url of pages) await keptNow(url);
      const homeShowsIt = caches.get("pages")!.tagsOf("home")!.has(tags.counts(item.id));
      // A category page carries its own category, not every other (what it read drops it, no more).
      const sortTags = caches.get("pages")!.tagsOf("sort:manyao:1:new")!;
      expect(sortTags.has(tags.category(manyao.id))).toBe(true);
      const others = (await t.database.db.select().from(categories)).filter((c) => c.id !== manyao.id && c.parentId !== manyao.id);
      expect(others.filter((c) => sortTags.has(tags.category(c.id)))).toEqual([]);
      await bus.publish({ type: "comments", ids: [item.id] } as unknown as CatalogueEvent);
      expect(peek(`site:${item.id}`)).toBeUndefined();
      expect(peek("home") !== undefined).toBe(!homeShowsIt);
      // Kept: each is served from memory, no render.
      for (const url of ["/sort/manyao", `/site/${other}.html`, "/login"]) {
        const before = { ...stats(), renders };
        await get(url);
        expect(stats().hits, url).toBe(before.hits + 1);
        expect(renders, url).toBe(before.renders);
      }
    } finally {
      stop();
    }
  });

  it("stays within its byte cap", async () => {
    for (const diyname of ["manyao", "chuanshao", "danqu"]) {
      for (let page = 1; page <= 15; page++) expect((await get(`/sort/${diyname}?page=${page}`)).res.statusCode).toBe(200);
    }
    const [lists, others] = caches().map((c) => c.stats());
    expect(lists!.maxBytes! + others!.maxBytes!).toBe(MAX_BYTES);
    expect(lists!.bytes).toBeLessThanOrEqual(lists!.maxBytes!);
    expect(others!.bytes).toBeLessThanOrEqual(others!.maxBytes!);
    expect(lists!.evictions).toBeGreaterThan(0);
  });
});
