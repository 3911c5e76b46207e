/**
 * Kept search answers (ADR 0034) through the real route, on both engines: a repeat is served
 * from memory (no query, no provider asked, the same bytes), every write through the write
 * service shows on the next search, failed or partial answers are not kept long, the kept
 * bytes are bounded, and the dashboard still counts every search.
 */
import { searchQuerySchema } from "@contracts/search";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categories, items } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import { CacheRegistry } from "../../lib/cache.js";
import { adjustableClock, type AdjustableClock } from "../../lib/clock.js";
import { html, status, type FixtureHandler } from "../../testing/fixture-site.js";
import { captureLog } from "../../testing/log-capture.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { SEARCH_ITEMS, searchPage } from "../sources/adapters/djuu.fixtures.js";
import { staticSourceDirectory } from "../sources/directory.js";
import { externalSearch } from "../sources/search-sources.js";
import { djuuSource, type FixtureSource } from "../sources/source-search.fixtures.js";
import { PARTIAL_ANSWER_MS, SEARCH_ANSWERS, searchAnswers } from "./answers.js";
import { searchService } from "./service.js";

interface Hit {
  id: number;
  name: string;
  category: string;
  website: string;
  source: string;
}

/** A djuu fixture site whose /search fails (500) while `failing.now` is true. */
function switchableDjuu() {
  const failing = { now: false };
  const handler: FixtureHandler = (req, res, match) =>
    failing.now ? status(500)(req, res, match) : html(searchPage(SEARCH_ITEMS))(req, res, match);
  return { failing, source: djuuSource((site) => site.route("/search", handler)) };
}

describe.each(testEngines())("kept search answers on %s", (engine) => {
  let t: TestApp;
  let clock: AdjustableClock;
  let djuu: FixtureSource;
  let failing: { now: boolean };
  let categoryId: number;

  const inject = (query: Record<string, string | undefined>, headers: Record<string, string> = {}) =>
    t.app.inject({ url: "/api/forntend/indexsearch", query: query as Record<string, string>, headers });
  const gzip = { "accept-encoding": "gzip" };
  const local = async (keyword: string) => {
    const res = await t.app.inject({ url: "/api/forntend/indexsearch", query: { keyword, pageSize: "50" } });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.list as Hit[]).filter((h) => h.source === "local");
  };
  const stats = () => t.app.services.searchAnswers.stats();
  const searchesCounted = async () => {
    await t.app.services.counters.flush();
    const [row] = await queryRows<{ count: number }>(t.database.db, sql`select coalesce(sum(count), 0)::int as count from daily_counters where name = 'search'`);
    return row.count;
  };

  beforeAll(async () => {
    clock = adjustableClock();
    const switchable = switchableDjuu();
    failing = switchable.failing;
    djuu = await switchable.source;
    t = await createTestApp(engine, { clock, sourceAdapters: [djuu.entry] });
    const [cat] = await t.app.services.writes.createCategories([{ name: "慢摇串烧", diyname: "keptmanyao" }]);
    categoryId = cat.id;
    await t.app.services.writes.createItems(
      ["极光夜曲", "夜曲一生", "晨曦慢摇"].map((title) => ({
        kind: "mix" as const,
        title,
        artist: "DJ阿远",
        playUrl: `/media/demo/${title}.m4a`,
        playtype: "mp3" as const,
        sourceSite: "local",
        categoryId: cat.id,
        status: "normal" as const,
      })),
    );
  });

  afterAll(async () => {
    await t?.close();
    await djuu?.close();
  });

  it("answers a repeat from memory: one load, the same bytes and ETag, 304, and every search counted", async () => {
    const counted = await searchesCounted();
    const before = stats();
    const asked = djuu.searches();
    const first = await inject({ keyword: " 夜曲 " }, gzip);
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-encoding"]).toBe("gzip");
    // The same normalised query (spaces, full-width, case), and `specify`, which changes nothing.
    const again = await inject({ keyword: "夜曲", specify: "x" }, gzip);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.headers.etag).toBe(first.headers.etag);
    const notModified = await inject({ keyword: "夜曲" }, { ...gzip, "if-none-match": String(first.headers.etag) });
    expect(notModified.statusCode).toBe(304);
    expect(stats()).toMatchObject({ misses: before.misses + 1, hits: before.hits + 2 });
    expect(djuu.searches()).toBe(asked + 1);
    // One kept answer object: serialized and compressed once, whoever asks.
    const q = searchQuerySchema.parse({ keyword: "夜曲" });
    expect(await t.app.services.searchAnswers.get(q)).toBe(await t.app.services.searchAnswers.get(q));

    // Whatever changes the answer is another query: page, page size, type, channel, filter.
    for (const other of [{ page: "2" }, { pageSize: "7" }, { type: "mp4" }, { channelid: "local" }, { filter: "mix" }]) {
      expect((await inject({ keyword: "夜曲", ...other })).headers.etag, JSON.stringify(other)).not.toBe(first.headers.etag);
    }
    expect(stats().misses).toBe(before.misses + 6);
    // Three first pages answered from memory and four other first pages count; page 2 does not.
    expect(await searchesCounted()).toBe(counted + 3 + 4);
  });

  it("shares one load between concurrent identical searches (a burst after a change is one query)", async () => {
    const before = stats();
    const asked = djuu.searches();
    const answers = await Promise.all(Array.from({ length: 10 }, () => inject({ keyword: "一生" })));
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
    expect(stats()).toMatchObject({ misses: before.misses + 1, hits: before.hits + 9 });
    expect(djuu.searches()).toBe(asked + 1);
  });

  it("refreshes in the background after 30 s and never serves an answer older than the max age", async () => {
    await inject({ keyword: "晨曦" });
    const { misses, refreshes } = stats();
    await inject({ keyword: "晨曦" });
    expect(stats()).toMatchObject({ misses, refreshes });
    clock.advance(SEARCH_ANSWERS.freshMs + 1_000);
    await inject({ keyword: "晨曦" }); // served at once, one load replaces it
    expect(stats()).toMatchObject({ misses, refreshes: refreshes + 1 });
    await inject({ keyword: "晨曦" });
    expect(stats()).toMatchObject({ misses, refreshes: refreshes + 1 });
    clock.advance(SEARCH_ANSWERS.staleMs + 1_000);
    await inject({ keyword: "晨曦" }); // too old to serve: waits for a new load
    expect(stats()).toMatchObject({ misses: misses + 1 });
  });

  it("shows an item created, edited or hidden through the write service, and a renamed category or site, on the next search", async () => {
    const { writes } = t.app.services;
    expect(await local("霓虹")).toEqual([]); // kept: nothing found
    const id = await writes.createItem({
      kind: "single",
      title: "霓虹灯下",
      artist: "DJ小鱼儿",
      playUrl: "/media/demo/neon.m4a",
      playtype: "mp3",
      sourceSite: "local",
      categoryId,
      status: "normal",
    });
    expect((await local("霓虹")).map((h) => h.id)).toEqual([id]);
    expect((await local("nhdx")).map((h) => h.id)).toEqual([id]);

    await writes.updateItem(id, { title: "星河灯下" });
    expect(await local("霓虹")).toEqual([]);
    expect((await local("星河")).map((h) => h.id)).toEqual([id]);

    expect((await local("星河"))[0]).toMatchObject({ category: "慢摇串烧" });
    await writes.updateCategory(categoryId, { name: "慢摇改名" });
    expect((await local("星河"))[0]).toMatchObject({ category: "慢摇改名" });

    const site = (await local("星河"))[0].website;
    await writes.updateSourceSite("local", { name: "本站改名" });
    expect((await local("星河"))[0].website).not.toBe(site);
    expect((await local("星河"))[0].website).toBe("本站改名");

    await writes.setItemsStatus([id], "hidden");
    expect(await local("星河")).toEqual([]);
    expect((await t.database.db.select({ status: items.status }).from(items).where(eq(items.id, id)))[0].status).toBe("hidden");
    const [cat] = await t.database.db.select({ name: categories.name }).from(categories).where(eq(categories.id, categoryId));
    expect(cat.name).toBe("慢摇改名");
  });

  it("keeps an answer naming a failed source 5 s at most", async () => {
    failing.now = true;
    try {
      const asked = djuu.searches();
      const partial = (await inject({ keyword: "极光" })).json().data;
      expect(partial.errors).toEqual([{ source: "djuu", msg: "搜索失败" }]);
      expect(partial.list.map((h: Hit) => h.name)).toContain("极光夜曲");
      await inject({ keyword: "极光" });
      expect(djuu.searches()).toBe(asked + 1);
      clock.advance(PARTIAL_ANSWER_MS + 1_000);
      failing.now = false;
      const whole = (await inject({ keyword: "极光" })).json().data;
      expect(djuu.searches()).toBe(asked + 2);
      expect(whole.errors).toEqual([]);
    } finally {
      failing.now = false;
    }
  });

  it("bounds the kept answers in bytes and entries", async () => {
    const maxBytes = 12_000;
    const answers = searchAnswers(t.app.services.search, {
      caches: new CacheRegistry(),
      now: Date.now,
      limits: { maxBytes, maxEntries: 5 },
    });
    for (const keyword of ["夜曲", "极光", "晨曦", "dj", "阿远", "慢摇", "yequ", "jg", "ayy", "夜"]) {
      const answer = await answers.get(searchQuerySchema.parse({ keyword, pageSize: "20" }));
      answer.encodedAs("gzip");
      const s = answers.stats();
      expect(s.bytes, keyword).toBeLessThanOrEqual(maxBytes);
      expect(s.entries).toBeLessThanOrEqual(5);
    }
    expect(answers.stats().evictions).toBeGreaterThan(0);
    // The app's own cache: within its caps.
    expect(stats().bytes).toBeLessThanOrEqual(SEARCH_ANSWERS.maxBytes);
    expect(stats().maxEntries).toBe(SEARCH_ANSWERS.maxEntries);
  });
});

describe("a search every provider failed", () => {
  it("is an error, not kept: the next search asks again", async () => {
    const { failing, source } = switchableDjuu();
    const djuu = await source;
    try {
      const external = externalSearch({ directory: staticSourceDirectory([djuu.entry]), clock: adjustableClock(), logger: captureLog().logger });
      const answers = searchAnswers(searchService(external.providers), { caches: new CacheRegistry(), now: Date.now });
      const q = searchQuerySchema.parse({ keyword: "夜曲" });
      failing.now = true;
      await expect(answers.get(q)).rejects.toMatchObject({ status: 502, message: "搜索失败" });
      failing.now = false;
      const answer = await answers.get(q);
      expect(JSON.parse(answer.body.toString()).data.errors).toEqual([]);
      expect(djuu.searches()).toBe(2);
      expect(answers.stats()).toMatchObject({ misses: 2, entries: 1 });
    } finally {
      await djuu.close();
    }
  });
});
