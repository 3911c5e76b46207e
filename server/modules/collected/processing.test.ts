/**
 * Processing collected items into the catalogue (issue 11, ADR 0024), in the real app on both
 * engines: the items then answer in our search, on their page and through the play route
 * against a fixture djuu.
 */
import { HLS_MIME_TYPE } from "@contracts/play-format";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectedItems, items, sourceSites } from "../../db/schema/index.js";
import { insertCollected, type CollectedFields } from "../../testing/collected.js";
import { startFixtureSite, type FixtureSite } from "../../testing/fixture-site.js";
import { captureLog } from "../../testing/log-capture.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { serveDjuu } from "../sources/adapters/djuu.fixtures.js";
import { createSourceAdapters } from "../sources/registry.js";

describe.each(testEngines())("processing collected items on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let djuuSite: FixtureSite;
  let closeSources: () => void;
  const cat: Record<string, number> = {};
  const log = captureLog();

  const db = () => testApp.database.db;
  const collect = (fields: CollectedFields) => insertCollected(db(), fields);
  const process = (ids: number[]) => app.services.collected.process(ids, { adminId: 1 });
  const item = async (id: number) => (await db().select().from(items).where(eq(items.id, id)))[0]!;
  const collected = async (id: number) => (await db().select().from(collectedItems).where(eq(collectedItems.id, id)))[0]!;
  const search = (keyword: string) => app.inject({ url: "/api/forntend/indexsearch", query: { keyword } });

  beforeAll(async () => {
    djuuSite = serveDjuu(await startFixtureSite());
    const built = createSourceAdapters({
      userAgent: "DJSearchBot/1.0 (+http://test/about)",
      logger: log.logger,
      overrides: { djuu: { baseUrl: djuuSite.url, apiBaseUrl: `${djuuSite.url}/app/v1`, allowAddresses: [djuuSite.host], minIntervalMs: 0 } },
    });
    closeSources = built.close;
    testApp = await createTestApp(engine, { sourceAdapters: built.sources });
    app = testApp.app;
    const { writes } = app.services;
    for (const c of await writes.createCategories([
      { name: "DJ串烧", diyname: "chuanshao", modelId: 2 },
      { name: "DJ单曲", diyname: "danqu" },
    ])) cat[c.diyname] = c.id;
    for (const c of await writes.createCategories([
      { name: "慢摇串烧", diyname: "manyao", modelId: 2, parentId: cat.chuanshao },
      { name: "中文Remix", diyname: "zhongwenremix", parentId: cat.danqu },
      { name: "停用的分类", diyname: "tingyong", parentId: cat.danqu, enabled: false },
    ])) cat[c.diyname] = c.id;
  });

  afterAll(async () => {
    await testApp?.close();
    closeSources?.();
    await djuuSite?.close();
  });

  it("creates the item through the write service and marks the row processed", async () => {
    const id = await collect({
      source: "djuu",
      sourceId: "201001",
      title: "夜曲(DJ阿福 Electro Rmx 2025 粤语)",
      artist: "周杰伦",
      cover: "https://img.djuu.com/cover/201001.jpg",
      kind: "single",
      durationSec: 252,
      sizeBytes: 2_100_000,
      sourceCategory: "4",
      sourceCategoryName: "中文Remix",
    });
    const [outcome] = await process([id]);
    expect(outcome).toMatchObject({ id, action: "created", error: null, itemId: expect.any(Number) });
    const row = await item(outcome!.itemId!);
    expect(row).toMatchObject({
      title: "夜曲(DJ阿福 Electro Rmx 2025 粤语)",
      artist: "周杰伦",
      cover: "https://img.djuu.com/cover/201001.jpg",
      kind: "single",
      sourceSite: "djuu",
      sourceId: "201001",
      sourceUrl: "https://www.djuu.com/play/201001.html",
      weburl: "https://www.djuu.com/play/201001.html",
      playUrl: "/api/forntend/source-play?source=djuu&id=201001",
      playtype: "mp3",
      durationSec: 252,
      sizeBytes: 2_100_000,
      categoryId: cat.zhongwenremix,
      status: "normal",
    });
    // Derived by the write service: search finds it by pinyin too.
    expect(row.searchText).toContain("yequ");
    expect(await collected(id)).toMatchObject({ status: 1, itemId: row.id, processedAt: expect.any(Date) });
  });

  it("processing again updates the same item: new fields, same id, counters and status kept", async () => {
    const id = await collect({ source: "djuu", sourceId: "201010", title: "江南(DJ何鹏 Remix)", artist: "林俊杰", cover: "https://img.djuu.com/c/old.jpg", kind: "single" });
    const [first] = await process([id]);
    await app.services.writes.addToItemCounts(first!.itemId!, { likes: 3, downloads: 2 });
    await app.services.writes.setItemsStatus([first!.itemId!], "hidden");
    await db().update(collectedItems).set({ title: "江南(DJ何鹏 Remix 2026)", cover: "https://img.djuu.com/c/new.jpg", durationSec: 241, artist: null }).where(eq(collectedItems.id, id));

    const [second] = await process([id]);
    expect(second).toMatchObject({ id, itemId: first!.itemId, action: "updated", error: null });
    const row = await item(first!.itemId!);
    expect(row).toMatchObject({
      title: "江南(DJ何鹏 Remix 2026)",
      cover: "https://img.djuu.com/c/new.jpg",
      durationSec: 241,
      // The row no longer names the artist: the item keeps the one it had.
      artist: "林俊杰",
      likeCount: 3,
      downloadCount: 2,
      // An admin hid it: processing never shows it again.
      status: "hidden",
    });
    expect(row.searchText).toContain("2026");
    const same = await db().select({ id: items.id }).from(items).where(eq(items.sourceId, "201010"));
    expect(same).toHaveLength(1);
  });

  it("two collected rows of one site item land on one item; an admin's category is kept", async () => {
    const a = await collect({ source: "djuu", sourceId: "201020", title: "DJ小鱼-慢摇串烧一", sourceCategoryName: "慢摇串烧" });
    const b = await collect({ source: "djuu", sourceId: "201020", title: "DJ小鱼-慢摇串烧一(手机版)", sourceUrl: "https://m.djuu.com/play/201020.html" });
    const [first] = await process([a]);
    expect((await item(first!.itemId!)).categoryId).toBe(cat.manyao);
    // Not where the mapping would put it: the admin's choice must survive.
    await app.services.writes.updateItem(first!.itemId!, { categoryId: cat.zhongwenremix });
    const [second] = await process([b]);
    expect(second).toMatchObject({ itemId: first!.itemId, action: "updated" });
    expect(await item(first!.itemId!)).toMatchObject({ title: "DJ小鱼-慢摇串烧一(手机版)", categoryId: cat.zhongwenremix, kind: "mix" });
    expect(await collected(b)).toMatchObject({ status: 1, itemId: first!.itemId });
  });

  it("two admins processing rows of one site item at once still make one item", async () => {
    const rows = await Promise.all([0, 1, 2, 3].map((n) => collect({ source: "djuu", sourceId: "201050", title: `同时处理 ${n}`, sourceUrl: `https://www.djuu.com/play/201050.html?from=${n}` })));
    const outcomes = (await Promise.all(rows.map((id) => process([id])))).flat();
    expect(outcomes.every((o) => o.error === null)).toBe(true);
    expect(new Set(outcomes.map((o) => o.itemId)).size).toBe(1);
    expect(outcomes.filter((o) => o.action === "created")).toHaveLength(1);
    expect(await db().select({ id: items.id }).from(items).where(eq(items.sourceId, "201050"))).toHaveLength(1);
  });

  it("maps categories and kinds: the site's category by name, else the kind's parent; the kind rule of SOURCES.md", async () => {
    const cases: [CollectedFields, { kind: string; categoryId: number | null }][] = [
      // Named like ours: that category, and its group says mix though the collector did not.
      [{ source: "djuu", sourceId: "k1", title: "DJ某某-车载精选", sourceCategoryName: " 慢摇串烧 " }, { kind: "mix", categoryId: cat.manyao! }],
      // A disabled category is not a target: the kind's parent instead.
      [{ source: "djuu", sourceId: "k2", title: "歌名(Rmx)", sourceCategoryName: "停用的分类" }, { kind: "single", categoryId: cat.danqu! }],
      [{ source: "djuu", sourceId: "k3", title: "南宁DJ-全中文Mash Up", sourceCategoryName: "车载DJ" }, { kind: "mix", categoryId: cat.chuanshao! }],
      [{ source: "djuu", sourceId: "k4", title: "一个很长的现场", durationSec: 30 * 60 }, { kind: "mix", categoryId: cat.chuanshao! }],
      [{ source: "djuu", sourceId: "k5", title: "一个很大的文件", sizeBytes: 100 * 1024 * 1024 }, { kind: "mix", categoryId: cat.chuanshao! }],
      [{ source: "djuu", sourceId: "k6", title: "短歌", durationSec: 29 * 60 + 59, sizeBytes: 100 * 1024 * 1024 - 1 }, { kind: "single", categoryId: cat.danqu! }],
      // The collector's kind wins over the keyword.
      [{ source: "djuu", sourceId: "k7", title: "串烧版 单曲", kind: "single" }, { kind: "single", categoryId: cat.danqu! }],
    ];
    const ids = [];
    for (const [fields] of cases) ids.push(await collect(fields));
    const outcomes = await process(ids);
    for (const [i, [, want]] of cases.entries()) {
      expect(outcomes[i]!.error, cases[i]![0].title).toBeNull();
      expect(await item(outcomes[i]!.itemId!), cases[i]![0].title).toMatchObject({ ...want, artist: "未知歌手" });
    }
  });

  it("a batch answers per id, in order: unknown ids, unknown sources and missing ids fail alone", async () => {
    const good = await collect({ source: "172minx", sourceId: "6a3f9c01", title: "夜来香(DJ Remix)" });
    const stranger = await collect({ source: "nosuchsite", sourceId: "1", title: "无名" });
    // No id from the collector, none in the address either.
    const noId = await insertCollected(db(), { source: "djuu", sourceId: "x", sourceUrl: "https://www.djuu.com/list/1.html" });
    await db().update(collectedItems).set({ sourceId: null }).where(eq(collectedItems.id, noId));
    // No id from the collector, but one in the address.
    const fromUrl = await insertCollected(db(), { source: "vvvdj", sourceId: "y", sourceUrl: "https://www.vvvdj.com/play/228811.html", title: "清风测试串烧" });
    await db().update(collectedItems).set({ sourceId: null }).where(eq(collectedItems.id, fromUrl));

    const outcomes = await process([good, 99_999_999, stranger, noId, fromUrl, good]);
    expect(outcomes).toEqual([
      { id: good, itemId: expect.any(Number), action: "created", error: null },
      { id: 99_999_999, itemId: null, action: null, error: "采集数据不存在" },
      { id: stranger, itemId: null, action: null, error: "未知来源: nosuchsite" },
      { id: noId, itemId: null, action: null, error: "缺少来源编号" },
      { id: fromUrl, itemId: expect.any(Number), action: "created", error: null },
    ]);
    expect(await collected(stranger)).toMatchObject({ status: 0, itemId: null });
    expect(await item(outcomes[4]!.itemId!)).toMatchObject({ sourceId: "228811", sourceSite: "vvvdj" });
  });

  it("the item is found by our search with its site's name and logo; an HLS site's item carries the hint", async () => {
    const djuu = await collect({ source: "djuu", sourceId: "201030", title: "采集夜航星(DJ版)", artist: "不才", kind: "single" });
    const vvvdj = await collect({ source: "vvvdj", sourceId: "228812", title: "采集夜航星串烧", kind: "mix" });
    const [a, b] = await process([djuu, vvvdj]);
    const res = await search("采集夜航星");
    expect(res.statusCode).toBe(200);
    const list = res.json().data.list as Record<string, unknown>[];
    const site = async (code: string) => (await db().select().from(sourceSites).where(eq(sourceSites.code, code)))[0];
    const [djuuSite, vvvdjSite] = [await site("djuu"), await site("vvvdj")];
    expect(list.find((i) => i.id === a!.itemId)).toMatchObject({
      source: "local",
      channel: "djuu",
      website: djuuSite!.name,
      websitelogo: djuuSite!.logo ?? "",
      palyurl: "/api/forntend/source-play?source=djuu&id=201030",
      url: `/sutie/${a!.itemId}.html`,
      category: "DJ单曲",
    });
    expect(list.find((i) => i.id === a!.itemId)).not.toHaveProperty("mimeType");
    expect(list.find((i) => i.id === b!.itemId)).toMatchObject({
      website: "清风DJ",
      websitelogo: vvvdjSite!.logo ?? "",
      palyurl: "/api/forntend/source-play?source=vvvdj&id=228812&format=hls",
      mimeType: HLS_MIME_TYPE,
      kind: "mix",
    });
  });

  it("its page data answers, and its play address resolves at play time through the source", async () => {
    const id = await collect({ source: "djuu", sourceId: "201040", title: "夜曲测试(DJ Rmx)", artist: "周杰伦", kind: "single", durationSec: 200 });
    const [done] = await process([id]);
    const info = await app.inject({ url: "/api/forntend/getmusicinfo", query: { id: String(done!.itemId) } });
    expect(info.statusCode).toBe(200);
    const data = info.json().data;
    expect(data).toMatchObject({ id: done!.itemId, title: "夜曲测试(DJ Rmx)", website: { code: "djuu" }, duration: 200, url: `/sutie/${done!.itemId}.html` });

    const played = await app.inject({ url: data.palyurl });
    expect(played.statusCode).toBe(302);
    expect(played.headers.location).toBe("https://mp4.djuu.com/c4/22/2026/201040.m4a?t=1795000000");
    expect(djuuSite.hits.filter((h) => h.path === "/app/v1/music/listen").map((h) => h.query.get("id"))).toContain("201040");
    // The route takes an HLS hint in its address and plays the same.
    const hinted = await app.inject({ url: `${data.palyurl}&format=hls` });
    expect(hinted.statusCode).toBe(302);
  });
});
