import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoMediaFixture } from "../../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../../db/seed/index.js";
import { bulkInsert } from "../../db/bulk.js";
import { categories, items, playEvents } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";

interface ListItem {
  id: number;
  name: string;
  category: string;
}

/**
 * Writes through the catalogue write service show on the very next request everywhere the
 * data is kept: navigation, home, category pages, suites, charts, sitemaps and search.
 */
describe.each(testEngines())("change events keep every kept answer true on %s", (engine) => {
  let t: TestApp;
  const json = async (url: string) => {
    const res = await t.app.inject(url);
    expect(res.statusCode, url).toBe(200);
    return res.json();
  };
  const search = async (keyword: string) =>
    (await json(`/api/forntend/indexsearch?keyword=${encodeURIComponent(keyword)}`)).data.list as ListItem[];
  const categoryOf = async (diyname: string) => (await t.database.db.select().from(categories).where(eq(categories.diyname, diyname)))[0];
  /** The newest visible audio item of a category (search looks for audio by default). */
  const newestIn = async (categoryId: number) =>
    (
      await queryRows<{ id: number; title: string }>(
        t.database.db,
        sql`select id, title from items where category_id = ${categoryId} and status = 'normal' and playtype = 'mp3' order by published_at desc, id desc limit 1`,
      )
    )[0];
  /** Asks every kept answer once, so the next request would be served from memory. */
  const warm = async (diyname: string, id: number) => {
    for (const url of [
      "/api/forntend/gettopnav",
      "/api/forntend/index",
      `/api/forntend/getsort?diyname=${diyname}`,
      `/api/forntend/getmusicinfo?id=${id}`,
    ]) {
      await json(url);
    }
    for (const url of ["/sitemap.xml", "/sitemap-items-1.xml"]) expect((await t.app.inject(url)).statusCode).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 40, singles: 20, plays: 0, writes: t.app.services.writes });
  });

  afterAll(() => t?.close());

  it("a category rename shows in the top navigation, home, its category page, a suite page and search on the very next request", async () => {
    const manyao = await categoryOf("manyao");
    const item = await newestIn(manyao.id);
    await warm("manyao", item.id);
    expect((await search(item.title)).find((i) => i.id === item.id)?.category).toBe(manyao.name);

    await t.app.services.writes.updateCategory(manyao.id, { name: "慢摇改名" });

    const nav = JSON.stringify((await json("/api/forntend/gettopnav")).data);
    expect(nav).toContain("慢摇改名");
    expect(nav).not.toContain(manyao.name);
    const home = (await json("/api/forntend/index")).data;
    expect(home.categories.find((c: { diyname: string }) => c.diyname === "manyao").name).toBe("慢摇改名");
    expect(home.suitelistx.find((s: { diyname: string }) => s.diyname === "manyao").list[0]).toMatchObject({ id: item.id, category: "慢摇改名" });
    const page = (await json("/api/forntend/getsort?diyname=manyao")).data;
    expect(page.categoryname).toBe("慢摇改名");
    expect(page.list[0]).toMatchObject({ id: item.id, category: "慢摇改名" });
    // The menu group lists the child's items with the new name too.
    const group = (await json("/api/forntend/getsort?diyname=chuanshao")).data.list as (ListItem & { cidurl: string })[];
    expect(group.filter((i) => i.cidurl === "/sort/manyao").map((i) => i.category)).toContain("慢摇改名");
    expect(group.filter((i) => i.category === manyao.name)).toEqual([]);
    expect((await json(`/api/forntend/getmusicinfo?id=${item.id}`)).data.channel).toEqual({ name: "慢摇改名", url: "/sort/manyao" });
    expect((await search(item.title)).find((i) => i.id === item.id)?.category).toBe("慢摇改名");

    await t.app.services.writes.updateCategory(manyao.id, { name: manyao.name });
    expect((await json("/api/forntend/getsort?diyname=manyao")).data.categoryname).toBe(manyao.name);
  });

  it("a suite edit changes what search finds (words, pinyin and initials) and what its pages show", async () => {
    const item = await newestIn((await categoryOf("club")).id);
    await warm("club", item.id);
    expect((await search("霓虹灯塔")).map((i) => i.id)).not.toContain(item.id);

    await t.app.services.writes.updateItem(item.id, { title: "霓虹灯塔 Remix 串烧" });

    for (const keyword of ["霓虹灯塔", "灯塔", "nihongdengta", "nhdt"]) {
      expect((await search(keyword)).map((i) => i.id), keyword).toContain(item.id);
    }
    expect((await search(item.title)).map((i) => i.id)).not.toContain(item.id);
    expect((await json(`/api/forntend/getmusicinfo?id=${item.id}`)).data.title).toBe("霓虹灯塔 Remix 串烧");
    const clubPage = (await json("/api/forntend/getsort?diyname=club")).data.list as ListItem[];
    expect(clubPage.find((i) => i.id === item.id)?.name).toBe("霓虹灯塔 Remix 串烧");
    const [{ searchText }] = await t.database.db.select({ searchText: items.searchText }).from(items).where(eq(items.id, item.id));
    expect(searchText).toContain("nihongdengta");
  });

  it("a new item written through the write service can be found and is listed at once", async () => {
    const edm = await categoryOf("edm");
    await warm("edm", (await newestIn(edm.id)).id);
    // The category's count and its menu group's (the sum of its members' kept counts).
    const totals = async () => [
      (await json("/api/forntend/getsort?diyname=edm")).data.total as number,
      (await json("/api/forntend/getsort?diyname=danqu")).data.total as number,
    ];
    const [edmBefore, groupBefore] = await totals();
    const id = await t.app.services.writes.createItem({
      kind: "mix",
      title: "极光电音之夜",
      artist: "DJ北辰",
      playUrl: "/media/demo/audio/loop-1.mp3",
      sourceSite: "local",
      categoryId: edm.id,
      publishedAt: new Date(Date.now() + 60_000),
    });
    expect((await search("极光")).map((i) => i.id)).toContain(id);
    expect((await search("jgdy")).map((i) => i.id)).toContain(id);
    expect((await json("/api/forntend/getsort?diyname=edm")).data.list[0].id).toBe(id);
    expect(await totals()).toEqual([edmBefore + 1, groupBefore + 1]);
    expect((await json("/api/forntend/index")).data.suitelistx.find((s: { diyname: string }) => s.diyname === "edm").list[0].id).toBe(id);
    expect((await t.app.inject("/sitemap-items-1.xml")).body).toContain(`/sutie/${id}.html<`);
  });

  it("hiding an item removes it from every list, chart, search and the sitemap", async () => {
    const zhongwen = await categoryOf("zhongwen");
    const item = await newestIn(zhongwen.id);
    // Newest of its menu group too, so it is on the group's first page and in the home lists.
    await t.app.services.writes.updateItem(item.id, { publishedAt: new Date(Date.now() + 120_000) });
    const [{ site }] = await queryRows<{ site: string }>(t.database.db, sql`select source_site as site from items where id = ${item.id}`);
    // Enough plays in the last hour to top its site's charts.
    const now = Date.now();
    const plays = Array.from({ length: 40 }, (_, i) => ({
      itemId: item.id,
      visitorId: `v${i}`,
      playbackId: `hide-test-${engine}-${i}`,
      playedAt: new Date(now - 60_000 - i * 1000),
      secondsListened: 60,
    }));
    await bulkInsert(t.database.db, playEvents, plays);
    expect((await t.app.services.charts.rebuildCharts()).status).toBe("rebuilt");
    // Kept pages refresh their charts in the background after a rebuild.
    const edmCharts = async () => ((await json("/api/forntend/getsort?diyname=edm")).data.side[site]?.rank_day ?? []) as ListItem[];
    await expect.poll(async () => (await edmCharts()).some((i) => i.id === item.id)).toBe(true);

    const everywhere = async () => {
      const home = (await json("/api/forntend/index")).data;
      const homeLists = [home.data, home.favorites, ...home.suitelist.map((s: { list: ListItem[] }) => s.list), ...home.suitelistx.map((s: { list: ListItem[] }) => s.list)];
      const rank = (await json(`/api/forntend/getrank?site=${site}&type=mix&period=day`)).data.list as ListItem[];
      return {
        homeLists: homeLists.flat().some((i: ListItem) => i.id === item.id),
        homeCharts: (home.side[site]?.rank_day ?? []).some((i: ListItem) => i.id === item.id),
        categoryPage: (await json("/api/forntend/getsort?diyname=zhongwen")).data.list.some((i: ListItem) => i.id === item.id),
        groupPage: (await json("/api/forntend/getsort?diyname=chuanshao")).data.list.some((i: ListItem) => i.id === item.id),
        otherPageCharts: ((await json("/api/forntend/getsort?diyname=edm")).data.side[site]?.rank_day ?? []).some((i: ListItem) => i.id === item.id),
        rank: rank.some((i) => i.id === item.id),
        search: (await search(item.title)).some((i) => i.id === item.id),
        sitemap: (await t.app.inject("/sitemap-items-1.xml")).body.includes(`/sutie/${item.id}.html<`),
      };
    };
    const before = await everywhere();
    expect(before).toEqual({
      homeLists: true,
      homeCharts: true,
      categoryPage: true,
      groupPage: true,
      otherPageCharts: true,
      rank: true,
      search: true,
      sitemap: true,
    });
    expect((await t.app.inject(`/api/forntend/getmusicinfo?id=${item.id}`)).statusCode).toBe(200);

    await t.app.services.writes.setItemsStatus([item.id], "hidden");

    expect(await everywhere()).toEqual({
      homeLists: false,
      homeCharts: false,
      categoryPage: false,
      groupPage: false,
      otherPageCharts: false,
      rank: false,
      search: false,
      sitemap: false,
    });
    const gone = await t.app.inject(`/api/forntend/getmusicinfo?id=${item.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().msg).toBe("数据不存在");

    await t.app.services.writes.setItemsStatus([item.id], "normal");
    expect((await everywhere()).categoryPage).toBe(true);
  });

  it("a like or favourite counted through the write service shows on the suite's page at once", async () => {
    const item = await newestIn((await categoryOf("hanmai")).id);
    const info = async () => (await json(`/api/forntend/getmusicinfo?id=${item.id}`)).data;
    const before = await info();
    await info(); // kept from here on
    await t.app.services.writes.transaction(async (w) => {
      await w.addToItemCounts(item.id, { likes: 1, favorites: 2 });
    });
    expect(await info()).toMatchObject({ countLikes: before.countLikes + 1, countFavorites: before.countFavorites + 2 });
    // Never below zero; and an unknown item is no write at all.
    await t.app.services.writes.addToItemCounts(item.id, { likes: -(before.countLikes + 5) });
    expect((await info()).countLikes).toBe(0);
    expect(await t.app.services.writes.addToItemCounts(2_000_000_000, { likes: 1 })).toBe(false);
  });

  it("a rolled-back transaction publishes nothing and changes nothing", async () => {
    const item = await newestIn((await categoryOf("digao")).id);
    const title = async () => (await json(`/api/forntend/getmusicinfo?id=${item.id}`)).data.title;
    const before = await title();
    const seen: string[] = [];
    const unsubscribe = t.app.services.bus.subscribe((event) => seen.push(event.type));
    try {
      await expect(
        t.app.services.writes.transaction(async (w) => {
          await w.updateItem(item.id, { title: "不会留下的标题" });
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(seen).toEqual([]);
      expect(await title()).toBe(before);
      expect((await search("不会留下的标题")).length).toBe(0);
    } finally {
      unsubscribe();
    }
  });
});
